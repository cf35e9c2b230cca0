/**
 * The account's calls: sign-in, verify, sign-out, the desktop hand-off, deletion, the activity and the
 * data export.
 * Part of the API contract (contract/api.ts).
 */
import { z } from 'zod';
import { activityItemSchema, type ActivityItem } from './account-activity.ts';
import { optionalEmail, subscriptionSchema, successAnswer, text, token, userSchema } from './api-common.ts';

// POST /auth/google/signin
export const googleSignInRequestSchema = z.object({ idToken: token });
// POST /auth/apple/signin
export const appleSignInRequestSchema = z.object({
  identityToken: token,
  userIdentifier: text(256).refine((value) => value.length > 0, 'must not be empty'),
  /** Never the account's e-mail (that comes from the verified token); validated and otherwise unused. */
  email: optionalEmail.nullish(),
  /** Fills the name on Apple's first sign-in only (Apple sends it once). */
  fullName: text(256).nullish(),
});
/** The sign-in bodies as a client sends them (the SPA's sign-in machine builds them, machines/exchange-request.ts). */
export type GoogleSignInRequest = z.input<typeof googleSignInRequestSchema>;
export type AppleSignInRequest = z.input<typeof appleSignInRequestSchema>;
/** Sign-in and hand-off redemption: a new session with its account. */
export const signInAnswerSchema = successAnswer({
  sessionToken: z.string(),
  user: userSchema,
  subscription: subscriptionSchema.nullable(),
});

// POST /auth/verify
export const verifyRequestSchema = z.object({ sessionToken: token });
export const verifyAnswerSchema = successAnswer({ user: userSchema, subscription: subscriptionSchema.nullable() });

// POST /auth/signout (and every call that answers nothing but success)
export const signOutRequestSchema = z.object({ sessionToken: token });
export const doneAnswerSchema = successAnswer({});

/**
 * PKCE (RFC 7636, S256 only): the desktop app's verifier is 43-128 characters of [A-Za-z0-9-._~]; its
 * challenge is the base64url SHA-256 of it (43 characters).
 */
const codeChallengeSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url SHA-256 (43 characters)');
const codeVerifierSchema = z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');

// POST /auth/handoff (codeChallenge: the desktop app started the pairing, /account?pair=<challenge>)
export const handoffRequestSchema = z.object({ sessionToken: token, codeChallenge: codeChallengeSchema.optional() });
export const handoffAnswerSchema = successAnswer({ handoffToken: z.string(), expiresAt: z.string() });

// POST /auth/handoff/redeem
export const handoffRedeemRequestSchema = z.object({
  handoffToken: token,
  /** Required when the hand-off was minted with a codeChallenge. */
  codeVerifier: codeVerifierSchema.optional(),
  deviceName: text(128)
    .transform((value) => value.trim())
    .refine((value) => value.length > 0, 'must not be empty'),
});

// DELETE /auth/delete-account
export const deleteAccountRequestSchema = z.object({
  email: text(320).refine((value) => value.length > 0, 'must not be empty'),
  userId: text(256).refine((value) => value.length > 0, 'must not be empty'),
  sessionToken: token,
});

// POST /account/activity: the account's own history, newest first (issue 30, item 6), a page at a time
// (issue 45, T25): `limit` entries (default ACTIVITY_PAGE), then the next page from the answer's `nextCursor`.
/** Entries in a page of account activity when the caller names no `limit` (the account page's "Show more" step). */
export const ACTIVITY_PAGE = 10;
/** The most entries one page may ask for. */
export const ACTIVITY_PAGE_MAX = 100;
/** Where a page of activity goes on from: the day and number of the last entry before it (`YYYY-MM-DD.N`). */
const activityCursor = z.string().regex(/^\d{4}-\d{2}-\d{2}\.\d{1,18}$/, 'must be a cursor from the last answer');
export const accountActivityRequestSchema = z.object({
  sessionToken: token,
  cursor: activityCursor.optional(),
  limit: z.number().int().min(1).max(ACTIVITY_PAGE_MAX).optional(),
});
export const accountActivityAnswerSchema = successAnswer({
  items: z.array(activityItemSchema),
  /** The cursor of the next page, null when this page is the last. */
  nextCursor: activityCursor.nullable(),
});
export interface AccountActivityPage {
  items: ActivityItem[];
  nextCursor: string | null;
}

// POST /account/export: the customer's copy of everything the retention list names for the account
// (issue 31, item 4), as a JSON attachment; needs a sign-in within the last 10 minutes, one per 10 minutes.
export const accountExportRequestSchema = z.object({ idToken: token });
/** A row as a person reads it: labelled fields, times in ISO 8601, amounts with their currency (issue 45, T16). */
const exportRowSchema = z.record(z.string(), z.string());
export const accountExportSchema = z.object({
  /** ISO 8601: when this copy was made. */
  exportedAt: z.string(),
  accountId: z.string(),
  /** The copy in a few sentences, for a person (the account page shows it beside the download). */
  summary: z.array(z.string()),
  /** One part per kind of data the retention list names (contract/retention.ts), with why and how long. */
  parts: z.array(
    z.object({
      key: z.string(),
      what: z.string(),
      why: z.string(),
      kept: z.string(),
      onDeletion: z.string(),
      /** Table -> the account's rows (secrets left out: token hashes, hand-off codes, page links). */
      rows: z.record(z.string(), z.array(exportRowSchema)),
    }),
  ),
  /** The e-mails sent to the account (the job queue keeps a sent message 7 days): kind and day. */
  emailsSent: z.array(z.object({ kind: z.string(), date: z.string() })),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

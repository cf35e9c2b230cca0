/**
 * The API contract: every request and response body of design §7, as zod schemas and inferred types.
 * The SPA's API client and the server's routes both import this module, so the two cannot drift apart.
 */
import { z } from 'zod';

const subscriptionSchema = z.object({
  /**
   * Usually active, inactive, past_due or cancelled (the client treats only `active` as access); kept open
   * so a new provider status is displayed raw, not dropped.
   */
  status: z.string().min(1),
  plan: z.string().optional(),
  cancelAtPeriodEnd: z.boolean(),
  /** ISO 8601 timestamp of the period end, when known. */
  endDate: z.string().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  /** Which identity provider the account signs in with. */
  provider: z.enum(['google', 'apple']).optional(),
});
export type ApiUser = z.infer<typeof userSchema>;

/**
 * Control characters (C0, DEL, C1; U+0000 included) are refused in every request string: no field of
 * this API needs one, and PostgreSQL refuses U+0000 outright (design §7: bad input gets a 400).
 */
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const NO_CONTROL_CHARACTERS = 'must not contain control characters';
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}
/** A request string of at most `max` characters with no control characters. */
function text(max: number) {
  return z.string().max(max).refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS);
}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An e-mail address as the body may carry it ('' when the provider gave none). */
const optionalEmail = text(320).refine((value) => value === '' || EMAIL.test(value), 'must be an e-mail address');

const token = text(8192).refine((value) => value.length > 0, 'must not be empty');

/**
 * Stable codes beside `error` (issue 14 item 4): clients decide by code, never by the wording of `error`.
 * A client meeting a code it does not know treats it as a plain failure.
 */
export const apiErrorCodeSchema = z.enum([
  'recently_deleted',
  'session_invalid',
  'rate_limited',
  'validation_failed',
  'subscription_exists',
]);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;

// Every failed call answers `{ success: false, error, code? }` with a 4xx (or 5xx for a transient server fault).

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
export const signInResponseSchema = z.object({
  success: z.boolean(),
  sessionToken: z.string().optional(),
  subscription: subscriptionSchema.nullable().optional(),
  user: userSchema.optional(),
  error: z.string().optional(),
});

// POST /auth/verify
export const verifyRequestSchema = z.object({ sessionToken: token });
export const verifyResponseSchema = z.object({
  success: z.boolean(),
  user: userSchema.optional(),
  subscription: subscriptionSchema.nullable().optional(),
  error: z.string().optional(),
});

// POST /auth/signout
export const signOutRequestSchema = z.object({ sessionToken: token });
export const successResponseSchema = z.object({ success: z.boolean(), error: z.string().optional() });

// POST /auth/handoff
export const handoffRequestSchema = z.object({ sessionToken: token });
export const handoffResponseSchema = z.object({
  success: z.boolean(),
  handoffToken: z.string().optional(),
  expiresAt: z.string().optional(),
  error: z.string().optional(),
});

// POST /auth/handoff/redeem
export const handoffRedeemRequestSchema = z.object({
  handoffToken: token,
  deviceName: text(128)
    .transform((value) => value.trim())
    .refine((value) => value.length > 0, 'must not be empty'),
});

// POST /auth/devices: the desktop sessions made by hand-offs
export const devicesRequestSchema = z.object({ sessionToken: token });
const deviceSchema = z.object({
  id: z.string(),
  deviceName: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
});
export type Device = z.infer<typeof deviceSchema>;
export const devicesResponseSchema = z.object({
  success: z.boolean(),
  devices: z.array(deviceSchema).optional(),
  error: z.string().optional(),
});
// POST /auth/devices/revoke
export const revokeDeviceRequestSchema = z.object({
  sessionToken: token,
  deviceId: text(128).refine((value) => value.length > 0, 'must not be empty'),
});

// DELETE /auth/delete-account
export const deleteAccountRequestSchema = z.object({
  email: text(320).refine((value) => value.length > 0, 'must not be empty'),
  userId: text(256).refine((value) => value.length > 0, 'must not be empty'),
  sessionToken: token,
});

// POST /subscription/create-checkout
export const createCheckoutRequestSchema = z.object({
  idToken: token,
  email: text(320).refine((value) => value.length > 0, 'must not be empty'),
});
export const createCheckoutResponseSchema = z.object({ url: z.string().optional(), error: z.string().optional() });

// POST /subscription/cancel
export const cancelSubscriptionRequestSchema = z.object({ idToken: token });
export const cancelSubscriptionResponseSchema = z.object({
  success: z.boolean(),
  error: z.string().optional(),
  subscription: subscriptionSchema.nullable().optional(),
});

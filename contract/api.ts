/**
 * The API contract: every request and response body of design §7, as zod schemas and inferred types.
 * The SPA's API client and the server's routes both import this module, so the two cannot drift apart.
 */
import { z } from 'zod';
import { activityItemSchema } from './account-activity.ts';
import { serverStatusSchema } from './relay.ts';
import { REASON_LIMITS, STAFF_ACTIONS, STAFF_ROLES } from './staff.ts';

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
function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}
/** A request string of at most `max` characters with no control characters. */
export function text(max: number) {
  return z.string().max(max).refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS);
}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An e-mail address as the body may carry it ('' when the provider gave none). */
const optionalEmail = text(320).refine((value) => value === '' || EMAIL.test(value), 'must be an e-mail address');

const token = text(8192).refine((value) => value.length > 0, 'must not be empty');

/**
 * Every failure's stable code (issue 14, item 4): callers decide by `code`, the `error` text is for people
 * and may be reworded. The SPA keeps the spec's "recently deleted" text rule only as a fallback.
 */
export const API_ERROR_CODES = [
  /** 400: the body, a field or a path parameter is not what the call takes (the error names the field). */
  'validation_failed',
  /** 413: the body is larger than the API accepts. */
  'body_too_large',
  /** 415: the body is not JSON. */
  'unsupported_media_type',
  /** 408 / 431 / 400 (or another 4xx): the HTTP request itself was refused (too slow, headers too large, malformed framing). */
  'bad_http_request',
  /** 404: no such call (method and path). */
  'no_such_call',
  /** 401: the identity token (Google, Apple) could not be verified. */
  'token_invalid',
  /** 401: the session token is unknown, expired or signed out. */
  'session_invalid',
  /** 401: a money call whose identity has no account here (sign in first). */
  'sign_in_required',
  /** 401: the call needs a sign-in within the last 10 minutes (downloading your data, adding a WireGuard device): sign in again. */
  'reauth_required',
  /** 403: the account was deleted within the cool-down. */
  'recently_deleted',
  /** 403: the token is of the other provider than the call's. */
  'wrong_provider',
  /** 403: the provider gave no verified e-mail address. */
  'no_verified_email',
  /** 403: the account was disabled by support (sign-in refused until it is enabled again). */
  'account_disabled',
  /** 403: a staff call by someone whose role (the `staff` claim) may not do it, or who is not staff. */
  'staff_forbidden',
  /** 403: a desktop app's session asked for what only the website may do. */
  'website_only',
  /** 403: the session does not belong to the account named in the body. */
  'account_mismatch',
  /** 409: the account is signed in on as many devices as it may be. */
  'device_limit',
  /** 403: the account's subscription gives no VPN access now (a payment never settled): no new WireGuard key. */
  'no_access',
  /** 409: the WireGuard public key is already one of this account's. */
  'key_in_use',
  /**
   * 400: the WireGuard public key cannot be a device's: the all-zero key (or another low-order point), a VPN
   * server's own key, a key of another account, or one removed less than 5 minutes ago. Which, is not said.
   */
  'key_refused',
  /** 503: no tunnel address is free in the configured pool (the operator must widen it). */
  'address_pool_exhausted',
  /** 401: the relay API's bearer token is missing or wrong. */
  'relay_token_invalid',
  /** 410: the peer list's `since` version is older than the change log keeps (or unknown): fetch the full list. */
  'version_gone',
  /** 401: the hand-off link expired, was used, or its web session ended. */
  'handoff_invalid',
  /** 404: the device, checkout or account named does not exist. */
  'not_found',
  /** 409: the account already has an active subscription. */
  'subscription_exists',
  /** 409: the account's subscription has a payment past due. */
  'subscription_past_due',
  /** 404: there is no live subscription to change. */
  'no_subscription',
  /** 409: the money-back guarantee has ended for this account (MONEY_BACK_DAYS after its first payment, contract/plans.ts). */
  'refund_window_closed',
  /** 409: the account's first payment was already refunded. */
  'already_refunded',
  /** 409: the account never paid, so there is nothing the money-back guarantee could refund. */
  'nothing_to_refund',
  /** 409: a payment of the account is disputed with the card issuer: no refund here while the dispute is open. */
  'dispute_open',
  /** 429: too many calls; Retry-After says when to try again. */
  'rate_limited',
  /** 400: a webhook delivery with a bad signature or payload. */
  'webhook_invalid',
  /** 409: a webhook event names a customer not known yet (delivered again later). */
  'event_deferred',
  /** 502: the payment provider failed the call. */
  'provider_failed',
  /** 503: the identity provider cannot be reached. */
  'identity_unavailable',
  /** 503: the database did not answer in time (a restart, a failover, a stall); try again shortly. */
  'service_unavailable',
  /** 500: an unexpected fault on our side. */
  'internal_error',
] as const;
export const apiErrorCodeSchema = z.enum(API_ERROR_CODES);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;

/** Every failed call answers this shape with a 4xx (or 5xx for a server or provider fault). */
export const errorResponseSchema = z.object({ success: z.literal(false), error: z.string(), code: apiErrorCodeSchema });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * A successful call's body: `success: true` and the call's own fields. One schema per answer, used by both
 * sides: the route serialises with it and the SPA's client parses with it (a failure is `errorResponseSchema`).
 */
function successAnswer<T extends z.ZodRawShape>(shape: T) {
  return z.object({ success: z.literal(true), ...shape });
}


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

// POST /auth/devices: every device of the account, desktop app sessions and WireGuard keys
export const devicesRequestSchema = z.object({ sessionToken: token });
const deviceSchema = z.object({
  id: z.string(),
  /** `desktop`: a desktop app session (hand-off); `wireguard`: a configuration made on the account page. */
  kind: z.enum(['desktop', 'wireguard']),
  deviceName: z.string(),
  createdAt: z.string(),
  /** Desktop sessions only, the UTC day of the last use (midnight UTC, ISO 8601): the time is never kept (issue 31); a WireGuard key keeps nothing about its use. */
  lastUsedAt: z.string().optional(),
  /** The device's WireGuard key and tunnel addresses (a desktop session's when it attached one). */
  publicKey: z.string().optional(),
  ipv4Address: z.string().optional(),
  ipv6Address: z.string().optional(),
});
export type Device = z.infer<typeof deviceSchema>;
export const devicesAnswerSchema = successAnswer({ devices: z.array(deviceSchema) });
// POST /auth/devices/revoke
export const revokeDeviceRequestSchema = z.object({
  sessionToken: token,
  deviceId: text(128).refine((value) => value.length > 0, 'must not be empty'),
});
/**
 * The removal's answer carries the peer list's version once it is made (issue 47, item 2): the device has left
 * every VPN server once each has confirmed that version (POST /vpn/devices/removal-status).
 */
export const revokeDeviceAnswerSchema = successAnswer({ peerListVersion: z.number().int().min(0) });

// POST /vpn/devices/removal-status: whether every VPN server has applied a removal's version (the account page polls it)
export const removalStatusRequestSchema = z.object({ sessionToken: token, version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });
export const removalStatusAnswerSchema = successAnswer({
  /** Every catalogue server with a relay token confirmed the version (polled since it, or reported it applied). */
  confirmed: z.boolean(),
  /** The ids of the servers that have not yet (catalogue order). */
  lagging: z.array(z.string()),
});

// DELETE /auth/delete-account
export const deleteAccountRequestSchema = z.object({
  email: text(320).refine((value) => value.length > 0, 'must not be empty'),
  userId: text(256).refine((value) => value.length > 0, 'must not be empty'),
  sessionToken: token,
});

// POST /subscription/create-checkout: answers the checkout page's URL (no `success`, as design §7 has it)
export const createCheckoutRequestSchema = z.object({
  idToken: token,
  email: text(320).refine((value) => value.length > 0, 'must not be empty'),
});
export const createCheckoutAnswerSchema = z.object({ url: z.string() });

// POST /subscription/cancel
export const cancelSubscriptionRequestSchema = z.object({ idToken: token });
export const cancelSubscriptionAnswerSchema = successAnswer({ subscription: subscriptionSchema.nullable() });

// POST /subscription/resume: auto-renewal back on while the paid period runs (design §8)
export const resumeSubscriptionRequestSchema = z.object({ idToken: token });
export const resumeSubscriptionAnswerSchema = successAnswer({ subscription: subscriptionSchema.nullable() });

// POST /subscription/refund: the money-back guarantee; access ends now, the first payment is refunded
export const refundSubscriptionRequestSchema = z.object({ idToken: token });
const refundSchema = z.object({
  /** In the currency's smallest unit (cents for usd). */
  amount: z.number().int(),
  currency: z.string(),
});
export const refundSubscriptionAnswerSchema = successAnswer({ subscription: subscriptionSchema.nullable(), refund: refundSchema });

// POST /billing/portal: where to update the card and settle what is owed (Stripe's Billing Portal, or the local page)
export const billingPortalRequestSchema = z.object({ idToken: token });
export const billingPortalAnswerSchema = successAnswer({ url: z.string() });

// POST /billing/history: the account's own charges and refunds, newest first
export const billingHistoryRequestSchema = z.object({ sessionToken: token });
const billingItemSchema = z.object({
  id: z.string(),
  kind: z.enum(['charge', 'refund']),
  /** In the currency's smallest unit (cents for usd); positive for refunds too. */
  amount: z.number().int(),
  currency: z.string(),
  /** ISO 8601 timestamp. */
  date: z.string(),
  description: z.string(),
  /** The receipt to show or print (Stripe's hosted invoice or receipt; the local checkout's own page). */
  receiptUrl: z.string().nullable(),
  /**
   * A refund's state (docs/decisions.md, "Refund states"): `owed` (being made), `made` (the money left),
   * `failed` (refused or failed at the provider; support contacts the customer). Absent on charges.
   */
  refundState: z.enum(['owed', 'made', 'failed']).optional(),
});
export type BillingItem = z.infer<typeof billingItemSchema>;
export const billingHistoryAnswerSchema = successAnswer({
  items: z.array(billingItemSchema),
  /** ISO 8601: until when the money-back guarantee can be claimed; absent when it cannot. */
  refundableUntil: z.string().optional(),
});

/**
 * A WireGuard public key: base64 of exactly 32 bytes (44 characters, the last before `=` carrying only
 * the bits 32 bytes leave: the canonical encoding, so one key has one spelling).
 */
export const WIREGUARD_KEY_PATTERN = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;
const wireguardKey = z.string().regex(WIREGUARD_KEY_PATTERN, 'must be a WireGuard public key: base64 of exactly 32 bytes');
/** The longest device name a customer may give. */
export const DEVICE_NAME_MAX = 50;
const deviceName = z
  .string()
  .transform((value) => value.trim())
  .refine((value) => value.length >= 1 && value.length <= DEVICE_NAME_MAX, `must be 1 to ${DEVICE_NAME_MAX} characters`)
  .refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS);

// GET /vpn/servers: the VPN servers a configuration can point at
const vpnServerSchema = z.object({
  id: z.string(),
  /** ISO 3166-1 alpha-2 ("US", "NG"). */
  country: z.string(),
  countryName: z.string(),
  city: z.string(),
  hostname: z.string(),
  endpointHost: z.string(),
  endpointPort: z.number().int(),
  /** The server's WireGuard public key. */
  publicKey: z.string(),
  /** Resolver addresses inside the tunnel. */
  dns: z.array(z.string()),
});
export type VpnServer = z.infer<typeof vpnServerSchema>;
export const vpnServersAnswerSchema = successAnswer({ servers: z.array(vpnServerSchema) });

// POST /vpn/devices: registers a WireGuard key (a web session: a new device; a desktop session: its own key).
// A web session also sends the provider's ID token of a sign-in within the last 10 minutes (issue 46, item 9).
export const registerKeyRequestSchema = z.object({ sessionToken: token, name: deviceName, publicKey: wireguardKey, idToken: token.optional() });
const wireguardDeviceSchema = z.object({
  id: z.string(),
  kind: z.enum(['desktop', 'wireguard']),
  name: z.string(),
  publicKey: z.string(),
  ipv4Address: z.string(),
  ipv6Address: z.string(),
  createdAt: z.string(),
});
export type WireguardDevice = z.infer<typeof wireguardDeviceSchema>;
export const wireguardDeviceAnswerSchema = successAnswer({ device: wireguardDeviceSchema });
// POST /vpn/devices/rotate: a new key (and new addresses) for a device; the old key is gone at once
export const rotateKeyRequestSchema = z.object({
  sessionToken: token,
  deviceId: text(128).refine((value) => value.length > 0, 'must not be empty'),
  publicKey: wireguardKey,
});

// POST /account/activity: the account's own history, newest first (issue 30, item 6)
export const accountActivityRequestSchema = z.object({ sessionToken: token });
export const accountActivityAnswerSchema = successAnswer({ items: z.array(activityItemSchema) });

// POST /account/export: the customer's copy of everything the retention list names for the account
// (issue 31, item 4), as a JSON attachment; needs a sign-in within the last 10 minutes, one per 10 minutes.
export const accountExportRequestSchema = z.object({ idToken: token });
const exportRowSchema = z.record(z.string(), z.unknown());
export const accountExportSchema = z.object({
  /** ISO 8601: when this copy was made. */
  exportedAt: z.string(),
  accountId: z.string(),
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

// Staff (issue 30): every call takes a fresh Firebase ID token; the role is its `staff` claim, never the body.
const staffRoleSchema = z.enum(STAFF_ROLES);
const nonEmpty = (max: number) =>
  text(max)
    .transform((value) => value.trim())
    .refine((value) => value.length > 0, 'must not be empty');

// POST /staff/search: by e-mail (prefix), account id, payment customer id or receipt number
export const staffSearchRequestSchema = z.object({ idToken: token, query: nonEmpty(320) });
const staffCustomerSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  /** The subscription's status (`none` without one), or `disabled`. */
  status: z.string(),
  createdAt: z.string(),
});
export type StaffCustomerSummary = z.infer<typeof staffCustomerSummarySchema>;
export const staffSearchAnswerSchema = successAnswer({ role: staffRoleSchema, customers: z.array(staffCustomerSummarySchema) });

// POST /staff/customer
export const staffCustomerRequestSchema = z.object({ idToken: token, userId: nonEmpty(256) });
const staffActionRecordSchema = z.object({
  id: z.string(),
  /** ISO 8601 timestamp. */
  at: z.string(),
  staffEmail: z.string(),
  role: staffRoleSchema,
  action: z.enum(STAFF_ACTIONS),
  reason: z.string(),
  outcome: z.enum(['done', 'refused', 'failed']),
});
export type StaffActionRecord = z.infer<typeof staffActionRecordSchema>;
const staffCustomerSchema = z.object({
  profile: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    provider: z.enum(['google', 'apple']),
    createdAt: z.string(),
    disabled: z.boolean(),
    paymentCustomerId: z.string().nullable(),
  }),
  subscription: subscriptionSchema.nullable(),
  billing: z.array(billingItemSchema),
  // Desktop app sessions and WireGuard keys (issue 29); a key has no last-used day (the relays report none).
  devices: z.array(
    z.object({ id: z.string(), name: z.string(), kind: z.enum(['desktop', 'wireguard']), createdAt: z.string(), lastUsedOn: z.string().nullable() }),
  ),
  emails: z.array(z.object({ kind: z.string(), date: z.string() })),
  actions: z.array(staffActionRecordSchema),
  /**
   * Whether the account's devices connect now, by the rule the peer list follows (issue 49, item 2):
   * `connects`, `pausedUntilPayment` (its payment is owed) or `planEnded` (no plan, or disabled).
   */
  access: z.enum(['connects', 'pausedUntilPayment', 'planEnded']),
});
export type StaffCustomer = z.infer<typeof staffCustomerSchema>;
export const staffCustomerAnswerSchema = successAnswer({ role: staffRoleSchema, customer: staffCustomerSchema });

// POST /staff/servers: every VPN server's status (as GET /vpn/servers/status) with the peer-list version it applied
export const staffServersRequestSchema = z.object({ idToken: token });
export const staffServersAnswerSchema = successAnswer({
  role: staffRoleSchema,
  /** The peer list's current version. */
  version: z.number().int(),
  servers: z.array(
    serverStatusSchema.extend({
      /** The highest version the server confirmed applied (a poll since it, its ETag, or its report); 0 before any. */
      confirmedVersion: z.number().int(),
      /** The versionApplied of its last report, or null before one. */
      versionApplied: z.number().int().nullable(),
      agentVersion: z.string().nullable(),
    }),
  ),
});

// POST /staff/actions: reason 5-500 characters for every action; deviceId for revoke_device
export const staffActionRequestSchema = z
  .object({
    idToken: token,
    userId: nonEmpty(256),
    action: z.enum(STAFF_ACTIONS),
    reason: text(REASON_LIMITS.max + 100)
      .transform((value) => value.trim())
      .refine((value) => value.length >= REASON_LIMITS.min, `must be at least ${REASON_LIMITS.min} characters`)
      .refine((value) => value.length <= REASON_LIMITS.max, `must be at most ${REASON_LIMITS.max} characters`),
    deviceId: text(128).optional(),
  })
  .refine((body) => body.action !== 'revoke_device' || (body.deviceId ?? '').length > 0, {
    path: ['deviceId'],
    message: 'is required to revoke a device',
  });
export const staffActionAnswerSchema = successAnswer({ outcome: z.literal('done') });

// GET /health (503 with the same shape when the database is down); GET /live
export const healthResponseSchema = z.object({ ok: z.boolean(), database: z.boolean() });
export const liveResponseSchema = z.object({ ok: z.boolean() });
// GET /ready (503 with the same shape when a dependency is down); redis is null when REDIS_URL is unset
export const readyResponseSchema = z.object({ ok: z.boolean(), database: z.boolean(), redis: z.boolean().nullable(), jobs: z.boolean() });
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

/**
 * What every call shares: the subscription and user bodies, the string rules of every request field,
 * the error envelope with its stable codes, the success envelope, and the health answers.
 * Part of the API contract (contract/api.ts).
 */
import { z } from 'zod';

export const subscriptionSchema = z.object({
  /**
   * Usually active, inactive, past_due or cancelled (the client treats only `active` as access); kept open
   * so a new provider status is displayed raw, not dropped.
   */
  status: z.string().min(1),
  plan: z.string().optional(),
  cancelAtPeriodEnd: z.boolean(),
  /** ISO 8601 timestamp of the period end, when known. */
  endDate: z.string().optional(),
  /**
   * true on a `past_due` subscription whose payment the provider stopped retrying (Stripe's `unpaid`): it
   * gives no VPN access until it is paid (its devices are paused, no device can be added). Absent on every
   * other one; a `past_due` without it keeps VPN access while the payment is retried (issue 46, item 2).
   */
  unpaid: z.boolean().optional(),
  /**
   * ISO 8601: when this subscription ended with its payment refunded (the money-back guarantee, or support's
   * refund), so the card says "Ended on <date>: refunded" (issue 45, T23). Absent otherwise.
   */
  refundedAt: z.string().optional(),
  /**
   * The account has had its money-back refund (once per account): nothing may promise it again (issue 45, T8).
   * Absent when it has not.
   */
  moneyBackUsed: z.boolean().optional(),
  /**
   * ISO 8601: when this subscription ended because a renewal was never paid (the provider's retries were over),
   * so the card says so (issue 45, T15). Absent otherwise.
   */
  endedUnpaidAt: z.string().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const userSchema = z.object({
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
export const NO_CONTROL_CHARACTERS = 'must not contain control characters';
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}
/** A request string of at most `max` characters with no control characters. */
export function text(max: number) {
  return z.string().max(max).refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS);
}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An e-mail address as the body may carry it ('' when the provider gave none). */
export const optionalEmail = text(320).refine((value) => value === '' || EMAIL.test(value), 'must be an e-mail address');

export const token = text(8192).refine((value) => value.length > 0, 'must not be empty');

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
  /**
   * 403: no subscription gives the account VPN access now (none ever, ended, refunded, a payment never
   * settled, disabled): no new WireGuard key, so no tunnel address.
   */
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
export function successAnswer<T extends z.ZodRawShape>(shape: T) {
  return z.object({ success: z.literal(true), ...shape });
}

// GET /health (503 with the same shape when the database is down); GET /live
export const healthResponseSchema = z.object({ ok: z.boolean(), database: z.boolean() });
export const liveResponseSchema = z.object({ ok: z.boolean() });
// GET /ready (503 with the same shape when a dependency is down); redis is null when REDIS_URL is unset
export const readyResponseSchema = z.object({ ok: z.boolean(), database: z.boolean(), redis: z.boolean().nullable(), jobs: z.boolean() });
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

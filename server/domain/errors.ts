/**
 * An error the API answers with its own status, code and message; anything else is a 500 with a generic
 * text. Codes are the contract's (contract/api.ts, API_ERROR_CODES): callers decide by them. Messages are
 * written for the customer: the SPA shows them in its toasts.
 */
import type { ApiErrorCode } from '../../contract/api.ts';
import { MONEY_BACK_DAYS, moneyBackGuarantee } from '../../contract/plans.ts';

export type { ApiErrorCode };

export class ApiFailure extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    /** What went wrong underneath (a provider's error): logged, never answered. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ApiFailure';
  }
}

/** en-US long date of a UTC day ("December 2, 2026"). */
const dayText = (day: Date) =>
  new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(day);

/** A 400 naming what is wrong with the request. */
export const invalidRequest = (reason: string) => new ApiFailure(400, 'validation_failed', `Invalid request: ${reason}`);

export const failures = {
  /** A sign-in within the last 10 minutes is needed `forWhat` ("to download your data"). */
  reauthRequired: (forWhat = 'to download your data') => new ApiFailure(401, 'reauth_required', `For your security, please sign in again ${forWhat}.`),
  invalidToken: () => new ApiFailure(401, 'token_invalid', 'Your sign-in could not be verified. Please sign in again.'),
  invalidSession: () => new ApiFailure(401, 'session_invalid', 'Your session has expired. Please sign in again.'),
  /** Says until when (issue 22 item 9): `availableOn` is the first whole day on which a new account is accepted. */
  recentlyDeleted: (availableOn: Date) =>
    new ApiFailure(
      403,
      'recently_deleted',
      `This account was recently deleted. You can create a new account with it on ${dayText(availableOn)}.`,
    ),
  wrongProvider: (expected: 'google' | 'apple') =>
    new ApiFailure(
      403,
      'wrong_provider',
      `This sign-in is not ${expected === 'google' ? 'a Google' : 'an Apple'} account. Please sign in with Google or Apple.`,
    ),
  noVerifiedEmail: (provider: 'google' | 'apple') =>
    new ApiFailure(
      403,
      'no_verified_email',
      `Your ${provider === 'google' ? 'Google' : 'Apple'} account has no verified e-mail address, which an account here needs.`,
    ),
  /** A desktop app's session asked for something only the website may do. */
  websiteOnly: () =>
    new ApiFailure(403, 'website_only', 'This can only be done on the website, signed in with Google or Apple, not from the VPN app.'),
  deviceLimit: (limit: number, accountUrl: string) =>
    new ApiFailure(
      409,
      'device_limit',
      `This account already has ${limit} devices (desktop apps and WireGuard configurations), the most it allows. Remove one under Devices on your account page (${accountUrl}) and try again.`,
    ),
  accountMismatch: () => new ApiFailure(403, 'account_mismatch', 'This session does not belong to that account.'),
  identityUnavailable: () =>
    new ApiFailure(503, 'identity_unavailable', 'Sign-in is temporarily unavailable. Please try again in a moment.'),
  /** The database dropped the connection or did not answer in time; `cause` is logged. */
  databaseUnavailable: (cause: unknown) =>
    new ApiFailure(503, 'service_unavailable', 'The service is briefly unavailable. Please try again in a moment.', cause),
  /**
   * No VPN access, so no new WireGuard key nor tunnel address (issue 46, items 2 and 9): `unpaid`, a
   * payment was never settled (Stripe's retries ended); `none`, no subscription gives access (never one,
   * ended, refunded, or disabled by support).
   */
  noAccess: (why: 'unpaid' | 'none') =>
    new ApiFailure(
      403,
      'no_access',
      why === 'unpaid'
        ? 'Your subscription has a payment that was not settled, so it gives no VPN access and no new device can be added. Update your payment method on your account page; access returns once it is paid.'
        : 'A device can be added only while you have an active subscription. Subscribe on your account page, then add it.',
    ),
  /** Support disabled the account: the spec's sign-in message (spec, "user disabled"). */
  accountDisabled: () => new ApiFailure(403, 'account_disabled', 'This account has been disabled. Please contact support.'),
  /** A staff call by a role that may not (or by someone who is not staff). */
  staffForbidden: () => new ApiFailure(403, 'staff_forbidden', 'Your staff role does not allow this.'),
  notFound: (what: string) => new ApiFailure(404, 'not_found', `${what} not found.`),
  handoffInvalid: () =>
    new ApiFailure(401, 'handoff_invalid', 'This app link has expired or was already used. Open the VPN app again from your account.'),
  alreadySubscribed: () => new ApiFailure(409, 'subscription_exists', 'You already have an active subscription.'),
  subscriptionPastDue: () =>
    new ApiFailure(
      409,
      'subscription_past_due',
      'Your subscription has a payment past due. Please update your payment details instead of subscribing again.',
    ),
  noSubscription: () => new ApiFailure(404, 'no_subscription', 'No active subscription found.'),
  refundWindowClosed: () =>
    new ApiFailure(
      409,
      'refund_window_closed',
      `The ${moneyBackGuarantee(MONEY_BACK_DAYS)} has ended for this account: it runs for ${MONEY_BACK_DAYS} days from your first payment.`,
    ),
  alreadyRefunded: () => new ApiFailure(409, 'already_refunded', 'Your first payment has already been refunded.'),
  /** The payment the guarantee covers was refunded in full already (e.g. by support in the Stripe Dashboard). */
  paymentRefundedAlready: () =>
    new ApiFailure(409, 'already_refunded', 'Your payment has already been refunded in full, so nothing more is owed. Your subscription is unchanged.'),
  nothingToRefund: () =>
    new ApiFailure(
      409,
      'nothing_to_refund',
      'There is no payment to refund: this account has not paid for a subscription. The money-back guarantee covers your first payment once you have made it.',
    ),
  disputeOpen: () =>
    new ApiFailure(
      409,
      'dispute_open',
      'You have disputed a payment with your card issuer, so it cannot be refunded here while the dispute is open. Your card issuer decides the dispute and returns the money if it finds for you.',
    ),
  /** A money call whose identity has no account (never signed in, or deleted since). */
  signInRequired: () => new ApiFailure(401, 'sign_in_required', 'Please sign in again before continuing.'),
  /** The payment provider failed a call; `cause` is logged. */
  providerFailed: (message: string, cause: unknown) => new ApiFailure(502, 'provider_failed', message, cause),
  webhookInvalid: (message: string) => new ApiFailure(400, 'webhook_invalid', message),
  /** A payment event for a customer not known yet: not recorded, so the provider delivers it again. */
  eventDeferred: () =>
    new ApiFailure(409, 'event_deferred', 'The event names a customer not known yet; it was not recorded. Deliver it again later.'),
};

/**
 * Whether an error (or one it wraps: drizzle wraps the driver's) means the database could not be used
 * rather than that a statement was wrong: a dropped connection (a restart, a failover,
 * pg_terminate_backend), a statement or connection that timed out, a database refusing connections.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const current of causeChain(error)) {
    const code = (current as { code?: unknown }).code;
    // 57P01-57P05: terminated by an administrator, crash or idle timeout, cannot connect now; 57014: the
    // statement_timeout cancelled the statement; class 08: connection exceptions; 53300: too many connections.
    if (typeof code === 'string' && (/^57P0[1-5]$/.test(code) || code === '57014' || code.startsWith('08') || code === '53300')) return true;
    if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code)) return true;
    if (/^(Query read timeout|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(current.message)) {
      return true;
    }
  }
  return false;
}

/**
 * Whether PostgreSQL aborted the transaction so that another one could go on (40P01 deadlock_detected, 40001
 * serialization_failure): nothing it wrote stays, and the same transaction run again normally succeeds.
 */
function isTransactionConflict(error: unknown): boolean {
  return causeChain(error).some((current) => {
    const code = (current as { code?: unknown }).code;
    return code === '40P01' || code === '40001';
  });
}

/** `error` and the errors it wraps (drizzle wraps the driver's), five deep at most. */
function causeChain(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let current = error; current instanceof Error && chain.length < 5; current = current.cause) chain.push(current);
  return chain;
}

/**
 * Runs `transaction` again when PostgreSQL aborts it for a conflict with another one (above), up to `attempts`
 * times in all: the caller answers as if the other transaction had not been there, instead of a 500.
 */
export async function retryingConflicts<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
    }
  }
}

/**
 * The one HTTP client of the SPA (ky), typed by the shared contract. Every answer is validated with the
 * contract's zod schema; an answer without a usable error gets the spec's fallback text (§8), so the
 * toasts always say something a customer can act on.
 */
import ky from 'ky';
import type { z } from 'zod';
import {
  apiErrorCodeSchema,
  type ApiErrorCode,
  billingHistoryResponseSchema,
  billingPortalResponseSchema,
  type BillingItem,
  cancelSubscriptionResponseSchema,
  createCheckoutResponseSchema,
  devicesResponseSchema,
  type Device,
  handoffResponseSchema,
  refundSubscriptionResponseSchema,
  resumeSubscriptionResponseSchema,
  signInResponseSchema,
  successResponseSchema,
  verifyResponseSchema,
  type Subscription,
} from '../../contract/api';

/** Fallback texts of spec §8, by call. `answered`: the API said no without a reason; `unreachable`: no answer. */
const FALLBACKS = {
  signIn: { answered: 'Backend authentication failed', unreachable: 'Failed to authenticate with backend' },
  verify: { answered: 'Session verification failed', unreachable: 'Failed to verify session' },
  checkout: { answered: 'Failed to create checkout session', unreachable: 'Failed to create checkout session' },
  cancel: { answered: 'Failed to cancel subscription', unreachable: 'Failed to cancel subscription' },
  deleteAccount: { answered: 'Failed to delete account', unreachable: 'Failed to delete account' },
  handoff: { answered: 'Could not prepare the desktop app link', unreachable: 'Could not prepare the desktop app link' },
  signOut: { answered: 'Sign out failed', unreachable: 'Sign out failed' },
  devices: { answered: 'Could not load your devices', unreachable: 'Could not load your devices' },
  resume: { answered: 'Failed to turn auto-renewal back on', unreachable: 'Failed to turn auto-renewal back on' },
  refund: { answered: 'Failed to request the refund', unreachable: 'Failed to request the refund' },
  billingPortal: { answered: 'Could not open the billing page', unreachable: 'Could not open the billing page' },
  billingHistory: { answered: 'Could not load your billing history', unreachable: 'Could not load your billing history' },
} as const;

type Fallback = (typeof FALLBACKS)[keyof typeof FALLBACKS];

/**
 * An error whose message is fit for a toast. `status` is the HTTP status when the API answered; `code` the
 * API's stable error code (contract `ApiErrorCode`) when it gave a known one: the machines decide by it.
 */
class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: ApiErrorCode | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The `error` text and known `code` of an answer, when it has them. */
function errorFields(json: unknown): { error: string | null; code: ApiErrorCode | null } {
  if (!json || typeof json !== 'object') return { error: null, code: null };
  const { error, code } = json as { error?: unknown; code?: unknown };
  const known = apiErrorCodeSchema.safeParse(code);
  return { error: typeof error === 'string' ? error : null, code: known.success ? known.data : null };
}

const http = ky.create({ prefixUrl: '/api', timeout: 20_000, retry: 0, throwHttpErrors: false });

async function call<S extends z.ZodType>(
  method: 'post' | 'delete',
  path: string,
  body: unknown,
  schema: S,
  fallback: Fallback,
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await http(path, { method, json: body });
  } catch {
    throw new ApiError(fallback.unreachable, null);
  }
  const json: unknown = await response.json().catch(() => null);
  const parsed = schema.safeParse(json);
  const { error, code } = errorFields(json);
  const data = parsed.data as { success?: boolean } | undefined;
  // The one owner of "the API said no": a non-2xx, an answer off the contract, or `success: false` all
  // throw here, so the machines handle thrown errors only.
  if (!response.ok || !parsed.success || data?.success === false) {
    throw new ApiError(error || fallback.answered, response.status, code);
  }
  return parsed.data;
}

export interface SessionAnswer {
  sessionToken: string;
  subscription: Subscription | null;
  user: z.infer<typeof signInResponseSchema>['user'];
}

function requireSessionToken(answer: z.infer<typeof signInResponseSchema>): SessionAnswer {
  if (!answer.sessionToken) throw new ApiError(FALLBACKS.signIn.answered, 200);
  return { sessionToken: answer.sessionToken, subscription: answer.subscription ?? null, user: answer.user };
}

export const api = {
  async googleSignIn(body: { idToken: string }): Promise<SessionAnswer> {
    return requireSessionToken(await call('post', 'auth/google/signin', body, signInResponseSchema, FALLBACKS.signIn));
  },
  async appleSignIn(body: {
    identityToken: string;
    userIdentifier: string;
    email: string | null;
    fullName: string | null;
  }): Promise<SessionAnswer> {
    return requireSessionToken(await call('post', 'auth/apple/signin', body, signInResponseSchema, FALLBACKS.signIn));
  },
  async verify(sessionToken: string) {
    const answer = await call('post', 'auth/verify', { sessionToken }, verifyResponseSchema, FALLBACKS.verify);
    if (!answer.user) throw new ApiError(FALLBACKS.verify.answered, 200);
    return { user: answer.user, subscription: answer.subscription ?? null };
  },
  async signOut(sessionToken: string): Promise<void> {
    await call('post', 'auth/signout', { sessionToken }, successResponseSchema, FALLBACKS.signOut);
  },
  /** `codeChallenge`: the desktop app started this pairing (`/account?pair=`); its link redeems only there. */
  async createHandoff(sessionToken: string, codeChallenge?: string): Promise<string> {
    const body = codeChallenge ? { sessionToken, codeChallenge } : { sessionToken };
    const answer = await call('post', 'auth/handoff', body, handoffResponseSchema, FALLBACKS.handoff);
    if (!answer.handoffToken) throw new ApiError(FALLBACKS.handoff.answered, 200);
    return answer.handoffToken;
  },
  async createCheckout(body: { idToken: string; email: string }): Promise<string> {
    const answer = await call('post', 'subscription/create-checkout', body, createCheckoutResponseSchema, FALLBACKS.checkout);
    if (!answer.url) throw new ApiError('No checkout URL received', 200);
    return answer.url;
  },
  async cancelSubscription(body: { idToken: string }) {
    return call('post', 'subscription/cancel', body, cancelSubscriptionResponseSchema, FALLBACKS.cancel);
  },
  async resumeSubscription(body: { idToken: string }) {
    return call('post', 'subscription/resume', body, resumeSubscriptionResponseSchema, FALLBACKS.resume);
  },
  async refundSubscription(body: { idToken: string }) {
    return call('post', 'subscription/refund', body, refundSubscriptionResponseSchema, FALLBACKS.refund);
  },
  async openBillingPortal(body: { idToken: string }): Promise<string> {
    const answer = await call('post', 'billing/portal', body, billingPortalResponseSchema, FALLBACKS.billingPortal);
    if (!answer.url) throw new ApiError('Could not open the billing page', 200);
    return answer.url;
  },
  async billingHistory(sessionToken: string): Promise<{ items: BillingItem[]; refundableUntil: string | null }> {
    const answer = await call('post', 'billing/history', { sessionToken }, billingHistoryResponseSchema, FALLBACKS.billingHistory);
    return { items: answer.items ?? [], refundableUntil: answer.refundableUntil ?? null };
  },
  async listDevices(sessionToken: string): Promise<Device[]> {
    const answer = await call('post', 'auth/devices', { sessionToken }, devicesResponseSchema, FALLBACKS.devices);
    return answer.devices ?? [];
  },
  async revokeDevice(sessionToken: string, deviceId: string): Promise<void> {
    await call('post', 'auth/devices/revoke', { sessionToken, deviceId }, successResponseSchema, FALLBACKS.devices);
  },
  async deleteAccount(body: { email: string; userId: string; sessionToken: string }): Promise<void> {
    await call('delete', 'auth/delete-account', body, successResponseSchema, FALLBACKS.deleteAccount);
  },
};

/**
 * The one HTTP client of the SPA (ky), typed by the shared contract. Every success answer is parsed with
 * the same zod schema its route serialises with (contract/api.ts); a failure is the shared error envelope.
 * An answer without a usable error gets the spec's fallback text (§8), so the toasts always say something
 * a customer can act on.
 */
import ky from 'ky';
import { takeEarlyAnswer } from './early-answers';
import type { z } from 'zod';
import { serversStatusAnswerSchema, type ServersStatusAnswer } from '../../contract/relay';
import {
  accountActivityAnswerSchema,
  accountExportSchema,
  type AccountActivityPage,
  type AccountExport,
  type ApiErrorCode,
  type AppleSignInRequest,
  billingHistoryAnswerSchema,
  billingPortalAnswerSchema,
  type BillingItem,
  cancelSubscriptionAnswerSchema,
  createCheckoutAnswerSchema,
  devicesAnswerSchema,
  type Device,
  type VpnServer,
  type WireguardDevice,
  doneAnswerSchema,
  errorResponseSchema,
  type GoogleSignInRequest,
  handoffAnswerSchema,
  refundSubscriptionAnswerSchema,
  removalStatusAnswerSchema,
  revokeDeviceAnswerSchema,
  resumeSubscriptionAnswerSchema,
  signInAnswerSchema,
  verifyAnswerSchema,
  vpnServersAnswerSchema,
  wireguardDeviceAnswerSchema,
} from '../../contract/api';
import { API_TIMEOUT_MS } from './api-timeout';

/**
 * Fallback texts of spec §8, by call, each written once. A pair: `answered`, the API said no without a
 * reason (or answered off the contract); `unreachable`, no answer at all. A single text serves both.
 */
const FALLBACKS = {
  signIn: { answered: 'Backend authentication failed', unreachable: 'Failed to authenticate with backend' },
  verify: { answered: 'Session verification failed', unreachable: 'Failed to verify session' },
  checkout: 'Failed to create checkout session',
  cancel: 'Failed to cancel subscription',
  deleteAccount: 'Failed to delete account',
  handoff: 'Could not prepare the desktop app link',
  signOut: 'Sign out failed',
  devices: 'Could not load your devices',
  resume: 'Failed to turn auto-renewal back on',
  refund: 'Failed to request the refund',
  billingPortal: 'Could not open the billing page',
  billingHistory: 'Could not load your billing history',
  activity: 'Could not load your account activity',
  dataExport: 'Could not prepare your data',
  vpnServers: 'Could not load the VPN servers',
  serversStatus: 'Could not load the server status',
  addDevice: 'Could not add the device',
  removalStatus: 'Could not check the removal',
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

/** The `error` text and known `code` of a failure answer (the shared envelope), field by field, when it has them. */
function errorFields(json: unknown): { error: string | null; code: ApiErrorCode | null } {
  if (!json || typeof json !== 'object') return { error: null, code: null };
  const { error, code } = json as { error?: unknown; code?: unknown };
  const text = errorResponseSchema.shape.error.safeParse(error);
  const known = errorResponseSchema.shape.code.safeParse(code);
  return { error: text.success && text.data ? text.data : null, code: known.success ? known.data : null };
}

const http = ky.create({ prefixUrl: '/api', timeout: API_TIMEOUT_MS, retry: 0, throwHttpErrors: false });

/** One call of the API: its answer parsed with `schema`, any refusal thrown as an ApiError (also for src/services/staff-api.ts). */
export async function call<S extends z.ZodType>(
  method: 'get' | 'post' | 'delete',
  path: string,
  body: unknown,
  schema: S,
  fallback: Fallback | string,
): Promise<z.infer<S>> {
  const texts = typeof fallback === 'string' ? { answered: fallback, unreachable: fallback } : fallback;
  let response: Response;
  try {
    // The entry script may have asked for this answer already (src/services/early-answers.ts).
    response = await ((method === 'post' ? takeEarlyAnswer(path, body) : null) ?? http(path, { method, ...(body === undefined ? {} : { json: body }) }));
  } catch {
    throw new ApiError(texts.unreachable, null);
  }
  const json: unknown = await response.json().catch(() => null);
  // The one owner of "the API said no": a non-2xx, or an answer the route's own schema refuses (a field
  // missing, `success: false`), throws here, so callers and machines handle thrown errors only.
  const parsed = response.ok ? schema.safeParse(json) : null;
  if (!parsed?.success) {
    const { error, code } = errorFields(json);
    throw new ApiError(error ?? texts.answered, response.status, code);
  }
  return parsed.data;
}

export type SessionAnswer = z.infer<typeof signInAnswerSchema>;

export const api = {
  async googleSignIn(body: GoogleSignInRequest): Promise<SessionAnswer> {
    return call('post', 'auth/google/signin', body, signInAnswerSchema, FALLBACKS.signIn);
  },
  async appleSignIn(body: AppleSignInRequest): Promise<SessionAnswer> {
    return call('post', 'auth/apple/signin', body, signInAnswerSchema, FALLBACKS.signIn);
  },
  async verify(sessionToken: string) {
    return call('post', 'auth/verify', { sessionToken }, verifyAnswerSchema, FALLBACKS.verify);
  },
  async signOut(sessionToken: string): Promise<void> {
    await call('post', 'auth/signout', { sessionToken }, doneAnswerSchema, FALLBACKS.signOut);
  },
  /** `codeChallenge`: the desktop app started this pairing (`/account?pair=`); its link redeems only there. */
  async createHandoff(sessionToken: string, codeChallenge?: string): Promise<string> {
    const body = codeChallenge ? { sessionToken, codeChallenge } : { sessionToken };
    return (await call('post', 'auth/handoff', body, handoffAnswerSchema, FALLBACKS.handoff)).handoffToken;
  },
  async createCheckout(body: { idToken: string; email: string }): Promise<string> {
    return (await call('post', 'subscription/create-checkout', body, createCheckoutAnswerSchema, FALLBACKS.checkout)).url;
  },
  async cancelSubscription(body: { idToken: string }) {
    return call('post', 'subscription/cancel', body, cancelSubscriptionAnswerSchema, FALLBACKS.cancel);
  },
  async resumeSubscription(body: { idToken: string }) {
    return call('post', 'subscription/resume', body, resumeSubscriptionAnswerSchema, FALLBACKS.resume);
  },
  async refundSubscription(body: { idToken: string }) {
    return call('post', 'subscription/refund', body, refundSubscriptionAnswerSchema, FALLBACKS.refund);
  },
  async openBillingPortal(body: { idToken: string }): Promise<string> {
    return (await call('post', 'billing/portal', body, billingPortalAnswerSchema, FALLBACKS.billingPortal)).url;
  },
  async billingHistory(sessionToken: string): Promise<{ items: BillingItem[]; refundableUntil: string | null }> {
    const answer = await call('post', 'billing/history', { sessionToken }, billingHistoryAnswerSchema, FALLBACKS.billingHistory);
    return { items: answer.items, refundableUntil: answer.refundableUntil ?? null };
  },
  /** The customer's copy of their data (needs a sign-in within 10 minutes: `reauth_required` otherwise). */
  async exportData(body: { idToken: string }): Promise<AccountExport> {
    return call('post', 'account/export', body, accountExportSchema, FALLBACKS.dataExport);
  },
  /** A page of the account's activity: the newest, or the one after `cursor` (the last page's `nextCursor`). */
  async accountActivity(sessionToken: string, cursor: string | null = null): Promise<AccountActivityPage> {
    const { items, nextCursor } = await call('post', 'account/activity', { sessionToken, ...(cursor ? { cursor } : {}) }, accountActivityAnswerSchema, FALLBACKS.activity);
    return { items, nextCursor };
  },
  async vpnServers(): Promise<VpnServer[]> {
    return (await call('get', 'vpn/servers', undefined, vpnServersAnswerSchema, FALLBACKS.vpnServers)).servers;
  },
  /** Every VPN server's state, load and measured uptime (public: /status, the staff console). */
  async serversStatus(): Promise<ServersStatusAnswer> {
    return call('get', 'vpn/servers/status', undefined, serversStatusAnswerSchema, FALLBACKS.serversStatus);
  },
  /** Registers a WireGuard public key (never the private key) as a new device. */
  /** A new device (a web session sends `idToken` of a sign-in within 10 minutes: `reauth_required` otherwise). */
  async registerKey(body: { sessionToken: string; name: string; publicKey: string; idToken?: string }): Promise<WireguardDevice> {
    return (await call('post', 'vpn/devices', body, wireguardDeviceAnswerSchema, FALLBACKS.addDevice)).device;
  },
  /** A device's key replaced by a new public key (`idToken` of a sign-in within 10 minutes, as for a new device). */
  async rotateKey(body: { sessionToken: string; deviceId: string; publicKey: string; idToken?: string }): Promise<WireguardDevice> {
    return (await call('post', 'vpn/devices/rotate', body, wireguardDeviceAnswerSchema, FALLBACKS.addDevice)).device;
  },
  async listDevices(sessionToken: string): Promise<Device[]> {
    return (await call('post', 'auth/devices', { sessionToken }, devicesAnswerSchema, FALLBACKS.devices)).devices;
  },
  /** The peer list's version that has the device removed (issue 47 item 2). */
  async revokeDevice(sessionToken: string, deviceId: string): Promise<number> {
    return (await call('post', 'auth/devices/revoke', { sessionToken, deviceId }, revokeDeviceAnswerSchema, FALLBACKS.devices)).peerListVersion;
  },
  /** Whether every VPN server has applied the peer list's `version`, and the ids of those that have not. */
  async removalStatus(sessionToken: string, version: number): Promise<{ confirmed: boolean; lagging: string[] }> {
    const { confirmed, lagging } = await call('post', 'vpn/devices/removal-status', { sessionToken, version }, removalStatusAnswerSchema, FALLBACKS.removalStatus);
    return { confirmed, lagging };
  },
  async deleteAccount(body: { email: string; userId: string; sessionToken: string }): Promise<void> {
    await call('delete', 'auth/delete-account', body, doneAnswerSchema, FALLBACKS.deleteAccount);
  },
};

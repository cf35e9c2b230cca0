/**
 * What the session machine's named actors and actions do in the browser. Firebase is not loaded here
 * unless a provider sign-out needs it, and the API client only when there is a session to check: this
 * module loads on every page once it is interactive, and most visitors to the public pages have none, so
 * these two imports stay dynamic (ky, zod and the contract are not downloaded for them).
 */
import { fromPromise } from 'xstate';
import type { Subscription } from '../../../contract/api';
import type { InitialiseOutput } from '../../../machines/session';
import type { Session, SessionUser } from '../../../machines/types';
import { readClientConfig, type ClientConfig } from '../../services/client-config';
import { storage } from '../../services/storage';
import { showToast } from '../../services/toasts';

let clientConfig: ClientConfig | null = null;

/** How long sign-out waits for the API revocation and the provider sign-out before it reports done. */
const BEST_EFFORT_SIGN_OUT_MS = 3000;

/** The checked client configuration; only valid after `initialise` succeeded. */
export function getClientConfig(): ClientConfig {
  if (!clientConfig) clientConfig = readClientConfig();
  return clientConfig;
}

export function toSessionUser(user: { id: string; email: string; name: string; provider?: 'google' | 'apple' }): SessionUser {
  return { uid: user.id, email: user.email, displayName: user.name, provider: user.provider ?? 'google' };
}

async function verifySession(sessionToken: string): Promise<Session> {
  const { api } = await import('../../services/api-client');
  const { user, subscription } = await api.verify(sessionToken);
  return { sessionToken, user: toSessionUser(user), subscription };
}

/** Signs out of Firebase only when it was ever loaded on this device, which a stored session implies. */
export async function signOutProvider(): Promise<void> {
  const { signOutProvider: firebaseSignOut } = await import('../../services/firebase-auth');
  await firebaseSignOut(getClientConfig());
}

export const sessionActors = {
  /**
   * Start-up: the Firebase configuration must be complete (spec §5), and the stored session token is read.
   * Firebase itself is initialised on first use (a sign-in, a redirect result, an ID token, a sign-out),
   * so the public pages never download it.
   */
  initialise: fromPromise<InitialiseOutput>(async () => {
    clientConfig = readClientConfig();
    return { storedSessionToken: storage.getSessionToken() };
  }),
  verifySession: fromPromise<Session, { sessionToken: string }>(({ input }) => verifySession(input.sessionToken)),
  signOutProvider: fromPromise<void>(() => signOutProvider()),
  fetchSubscription: fromPromise<Subscription | null, { sessionToken: string }>(
    async ({ input }) => (await verifySession(input.sessionToken)).subscription,
  ),
  /**
   * Sign-out always works (issue 11 item 4): the machine has cleared the stored session first; revoking it at the API
   * and the provider's sign-out are best effort, and waited for at most a few seconds (offline, loading
   * Firebase or reaching the API can fail or hang).
   */
  signOut: fromPromise<void, { sessionToken: string | null }>(async ({ input }) => {
    const revoke = async () => {
      if (!input.sessionToken) return;
      const { api } = await import('../../services/api-client');
      await api.signOut(input.sessionToken);
    };
    const bestEffort = Promise.allSettled([revoke(), signOutProvider()]);
    await Promise.race([bestEffort, new Promise((resolve) => setTimeout(resolve, BEST_EFFORT_SIGN_OUT_MS))]);
  }),
};

export const sessionActions = {
  storeSessionToken: (_: unknown, params: { sessionToken: string }) => storage.setSessionToken(params.sessionToken),
  clearStoredSession: () => storage.clearSession(),
  showToast: (_: unknown, params: Parameters<typeof showToast>[0]) => void showToast(params),
};

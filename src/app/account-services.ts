/**
 * The customer-journey machines (checkout, auto-renewal, account deletion) composed with their browser
 * implementations. Each screen creates its actor from these; the screen itself only sends events.
 */
import { fromPromise, waitFor } from 'xstate';
import { isSessionRefusal } from '../../machines/session';
import { accountDeletionMachine } from '../../machines/account-deletion';
import { activationMachine } from '../../machines/activation';
import { autoRenewalMachine } from '../../machines/auto-renewal';
import { billingHistoryMachine } from '../../machines/billing-history';
import { checkoutMachine } from '../../machines/checkout';
import { devicesMachine } from '../../machines/devices';
import type { AccountUser, NavigateParams } from '../../machines/types';
import { storage } from '../services/storage';
import { showToast, type ToastParams } from '../services/toasts';
import type { AppActors } from './app-actors';
import { getClientConfig, signOutProvider } from './session-services';

async function idToken(): Promise<string> {
  const { currentIdToken } = await import('../services/firebase-auth');
  const token = await currentIdToken(getClientConfig());
  if (!token) throw new Error('Please sign in again.');
  return token;
}

const toast = (_: unknown, params: ToastParams) => void showToast(params);

/**
 * Runs an API call made with the session; when the API refuses the session (401), the session machine
 * takes over (issue 11 item 3): it signs out locally, toasts "Session expired" and goes to `/signin`. The
 * call then never settles, so the screen's own failure toast does not repeat it; leaving the page stops
 * the screen's actor and, with it, the wait.
 */
async function withSession<T>(actors: AppActors, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isSessionRefusal(error)) throw error;
    actors.session.send({ type: 'session.expired' });
    return new Promise<T>(() => {});
  }
}

export function provideCheckout(navigate: (params: NavigateParams) => void) {
  return checkoutMachine.provide({
    actors: {
      createCheckout: fromPromise<{ url: string }, { email: string }>(async ({ input }) => {
        const { api } = await import('../services/api-client');
        return { url: await api.createCheckout({ idToken: await idToken(), email: input.email }) };
      }),
    },
    actions: {
      showToast: toast,
      navigate: (_, params: NavigateParams) => navigate(params),
      redirectToCheckout: (_, params: { url: string }) => window.location.assign(params.url),
    },
  });
}

/** Asks the session to refresh its subscription; resolves with the session once it has. */
async function refreshedSession(actors: AppActors, timeoutMs: number) {
  actors.session.send({ type: 'subscription.refresh' });
  return waitFor(await actors.session.load(), (state) => !state.hasTag('refreshing'), { timeout: timeoutMs });
}

/** /success: re-reads the session's subscription until the payment webhook has made it active. */
export function provideActivation(actors: AppActors) {
  return activationMachine.provide({
    actors: {
      checkSubscription: fromPromise(async () => (await refreshedSession(actors, 15_000)).context.subscription),
    },
  });
}

export function provideAutoRenewal(actors: AppActors) {
  return autoRenewalMachine.provide({
    actors: {
      refreshSubscription: fromPromise<void>(async () => {
        await refreshedSession(actors, 30_000);
      }),
      cancelSubscription: fromPromise<void, { user: AccountUser }>(async () => {
        const { api } = await import('../services/api-client');
        const answer = await withSession(actors, async () => api.cancelSubscription({ idToken: await idToken() }));
        actors.session.send({ type: 'subscription.updated', subscription: answer.subscription });
      }),
      resumeSubscription: fromPromise<void, { user: AccountUser }>(async () => {
        const { api } = await import('../services/api-client');
        const answer = await withSession(actors, async () => api.resumeSubscription({ idToken: await idToken() }));
        actors.session.send({ type: 'subscription.updated', subscription: answer.subscription });
      }),
      refundSubscription: fromPromise<void, { user: AccountUser }>(async () => {
        const { api } = await import('../services/api-client');
        const answer = await withSession(actors, async () => api.refundSubscription({ idToken: await idToken() }));
        actors.session.send({ type: 'subscription.updated', subscription: answer.subscription });
      }),
    },
    actions: { showToast: toast },
  });
}

export function provideAccountDeletion(actors: AppActors, navigate: (params: NavigateParams) => void) {
  return accountDeletionMachine.provide({
    actors: {
      deleteAccount: fromPromise<void, { user: AccountUser }>(async ({ input }) => {
        const sessionToken = currentSessionToken(actors);
        const { api } = await import('../services/api-client');
        await withSession(actors, () =>
          api.deleteAccount({ email: input.user.email, userId: input.user.uid, sessionToken }),
        );
      }),
      // The account and its subscription are gone: asking the API would get a 401, which would end the
      // session as "expired" and send the customer to /signin. The refreshed state is known: none.
      refreshSubscription: fromPromise<void>(async () => {
        actors.session.send({ type: 'subscription.updated', subscription: null });
      }),
      signOut: fromPromise<void>(async () => {
        storage.clearSession();
      }),
    },
    actions: {
      showToast: toast,
      navigate: (_, params: NavigateParams) => navigate(params),
      // The machine's last action, after it navigated to `/`. The provider sign-out follows the event:
      // Firebase reports it to the session as `auth.changed`, which a signed-out session ignores.
      endSession: () => {
        actors.session.send({ type: 'session.ended' });
        void signOutProvider().catch(() => undefined);
      },
    },
  });
}

function currentSessionToken(actors: AppActors): string {
  const sessionToken = actors.session.getSnapshot().context.sessionToken;
  if (!sessionToken) throw new Error('Please sign in again.');
  return sessionToken;
}

/** The account page's desktop devices: the sessions the desktop app obtained through hand-offs. */
export function provideDevices(actors: AppActors) {
  return devicesMachine.provide({
    actors: {
      listDevices: fromPromise(async () => {
        const { api } = await import('../services/api-client');
        return withSession(actors, () => api.listDevices(currentSessionToken(actors)));
      }),
      revokeDevice: fromPromise<void, { deviceId: string }>(async ({ input }) => {
        const { api } = await import('../services/api-client');
        await withSession(actors, () => api.revokeDevice(currentSessionToken(actors), input.deviceId));
      }),
    },
    actions: { showToast: toast },
  });
}

/** The account page's billing history: the account's charges and refunds (issue 20). */
export function provideBillingHistory(actors: AppActors) {
  return billingHistoryMachine.provide({
    actors: {
      loadBillingHistory: fromPromise(async () => {
        const { api } = await import('../services/api-client');
        return withSession(actors, () => api.billingHistory(currentSessionToken(actors)));
      }),
    },
  });
}

/**
 * Open VPN App: a fresh one-time hand-off link each time (design §7). With `codeChallenge` (the desktop
 * app opened /account?pair=<challenge>), the link redeems only in the app holding its verifier. Rejects,
 * after saying why in a toast, when no link could be made, so the page does not say "Opening…"
 * (machines/app-link.ts).
 */
export async function openVpnApp(actors: AppActors, codeChallenge?: string): Promise<void> {
  const sessionToken = actors.session.getSnapshot().context.sessionToken;
  if (!sessionToken) throw new Error('signed out');
  const { openDesktopApp } = await import('../services/desktop-link');
  try {
    await withSession(actors, () => openDesktopApp(sessionToken, codeChallenge));
  } catch (error) {
    void showToast({
      title: 'Could not open the VPN app',
      message: error instanceof Error ? error.message : 'Please try again',
      color: 'red',
    });
    throw error;
  }
}

/** "Update payment method" (issue 20, item 5): to Stripe's Billing Portal, or the local billing page. */
export async function openBillingPortal(actors: AppActors): Promise<void> {
  try {
    const { api } = await import('../services/api-client');
    const url = await withSession(actors, async () => api.openBillingPortal({ idToken: await idToken() }));
    window.location.assign(url);
  } catch (error) {
    void showToast({
      title: 'Could not open the billing page',
      message: error instanceof Error ? error.message : 'Please try again',
      color: 'red',
    });
  }
}

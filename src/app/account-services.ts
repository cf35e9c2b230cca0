/**
 * The account page's machines (auto-renewal, account deletion, devices, billing history) composed with
 * their browser implementations. The page creates its actors from these; it only sends events. Loaded only
 * with the account page, which calls the API as it opens, so the API client is imported statically here.
 */
import { fromPromise } from 'xstate';
import { isSessionRefusal } from '../../machines/session';
import { accountDeletionMachine } from '../../machines/account-deletion';
import { autoRenewalMachine } from '../../machines/auto-renewal';
import { billingHistoryMachine } from '../../machines/billing-history';
import { devicesMachine } from '../../machines/devices';
import type { AccountUser, NavigateParams } from '../../machines/types';
import { api } from '../services/api-client';
import { openDesktopApp } from '../services/desktop-link';
import { storage } from '../services/storage';
import { showToast, type ToastParams } from '../services/toasts';
import type { AppActors } from './app-actors';
import { idToken, refreshedSession } from './checkout-services';
import { signOutProvider } from './session-services';

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

export function provideAutoRenewal(actors: AppActors) {
  return autoRenewalMachine.provide({
    actors: {
      refreshSubscription: fromPromise<void>(async () => {
        await refreshedSession(actors, 30_000);
      }),
      cancelSubscription: fromPromise<void, { user: AccountUser }>(async () => {
        const answer = await withSession(actors, async () => api.cancelSubscription({ idToken: await idToken() }));
        actors.session.send({ type: 'subscription.updated', subscription: answer.subscription });
      }),
      resumeSubscription: fromPromise<void, { user: AccountUser }>(async () => {
        const answer = await withSession(actors, async () => api.resumeSubscription({ idToken: await idToken() }));
        actors.session.send({ type: 'subscription.updated', subscription: answer.subscription });
      }),
      refundSubscription: fromPromise<void, { user: AccountUser }>(async () => {
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
  const sessionToken = actors.session.sessionToken();
  if (!sessionToken) throw new Error('Please sign in again.');
  return sessionToken;
}

/** The account page's desktop devices: the sessions the desktop app obtained through hand-offs. */
export function provideDevices(actors: AppActors) {
  return devicesMachine.provide({
    actors: {
      listDevices: fromPromise(async () => {
        return withSession(actors, () => api.listDevices(currentSessionToken(actors)));
      }),
      revokeDevice: fromPromise<void, { deviceId: string }>(async ({ input }) => {
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
  const sessionToken = actors.session.sessionToken();
  if (!sessionToken) throw new Error('signed out');
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

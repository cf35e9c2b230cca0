/**
 * The Subscription Status card's services: the auto-renewal machine's calls (turn off, turn back on, refund,
 * refresh), Open VPN App and "Update payment method".
 */
import { fromPromise } from 'xstate';
import { autoRenewalMachine } from '../../../../machines/auto-renewal';
import type { AccountUser } from '../../../../machines/types';
import { api } from '../../../services/api-client';
import { openDesktopApp } from '../../../services/desktop-link';
import { showToast } from '../../../services/toasts';
import type { AppActors } from '../../../app/actors/app-actors';
import { idToken, refreshedSession } from '../../../app/flows/checkout-services';
import { toast, withSession } from '../session-calls';

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

/**
 * The checkout (/subscribe) and its activation (/success) composed with their browser implementations,
 * and the two helpers the account page shares with them. Public pages load this on their first load, so
 * the API client (ky, zod and the contract) stays a dynamic import until the customer asks for a checkout.
 */
import { fromPromise, waitFor } from 'xstate';
import { activationMachine } from '../../../machines/activation';
import { checkoutMachine } from '../../../machines/checkout';
import type { NavigateParams } from '../../../machines/types';
import { showToast, type ToastParams } from '../../services/toasts';
import type { AppActors } from '../actors/app-actors';
import { getClientConfig } from './session-services';

/** The identity provider's session has lapsed: there is no ID token to call the API with. */
export class ProviderSessionLapsed extends Error {
  constructor() {
    super('Please sign in again.');
  }
}

/**
 * The signed-in Firebase user's ID token, which the subscription and billing calls take. Without one the
 * provider's session has lapsed (ProviderSessionLapsed): an account card's call then ends the session as
 * expired, which says why and signs in again back to the page (issue 34).
 */
export async function idToken(): Promise<string> {
  const { currentIdToken } = await import('../../services/firebase-auth');
  const token = await currentIdToken(getClientConfig());
  if (!token) throw new ProviderSessionLapsed();
  return token;
}

const toast = (_: unknown, params: ToastParams) => void showToast(params);

export function provideCheckout(navigate: (params: NavigateParams) => void) {
  return checkoutMachine.provide({
    actors: {
      createCheckout: fromPromise<{ url: string }, { email: string }>(async ({ input }) => {
        const { api } = await import('../../services/api-client');
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
export async function refreshedSession(actors: AppActors, timeoutMs: number) {
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

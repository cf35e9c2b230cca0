/**
 * What every account card's services share: an API call made with the session, and the toast action. Cards
 * call the API only through their own `services.ts`, which hands these to their machine (`machine.provide`).
 */
import { isSessionRefusal } from '../../../machines/session';
import { showToast, type ToastParams } from '../../services/toasts';
import type { AppActors } from '../../app/actors/app-actors';
import { ProviderSessionLapsed } from '../../app/flows/checkout-services';

export const toast = (_: unknown, params: ToastParams) => void showToast(params);

/**
 * Runs an API call made with the session; when the API refuses the session (401), the session machine
 * takes over (issue 11 item 3): it signs out locally, toasts "Session expired" and goes to `/signin`. The
 * call then never settles, so the card's own failure toast does not repeat it; leaving the page stops
 * the card's actor and, with it, the wait. A lapsed provider session (no ID token) is told to the session as
 * `session.providerExpired`: the same, also when Firebase has already signed the page out (issue 34).
 */
export async function withSession<T>(actors: AppActors, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderSessionLapsed) {
      // Firebase may have told the session first, silently: this says why and signs in again, back here.
      actors.session.send({ type: 'session.providerExpired' });
      return new Promise<T>(() => {});
    }
    if (!isSessionRefusal(error)) throw error;
    actors.session.send({ type: 'session.expired' });
    return new Promise<T>(() => {});
  }
}

/** The signed-in session's token, which the account's own API calls carry. */
export function currentSessionToken(actors: AppActors): string {
  const sessionToken = actors.session.sessionToken();
  if (!sessionToken) throw new Error('Please sign in again.');
  return sessionToken;
}

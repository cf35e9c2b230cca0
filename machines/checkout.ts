/**
 * Checkout machine: the Subscribe Now button. Carries out spec §4 "Subscribe", §5 (subscribing requires a
 * signed-in user and no active subscription), §2 Subscribe ("Redirecting to checkout..." while busy), §8
 * checkout toasts; design §4 (checkout).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Subscription } from '../contract/api';
import { errorMessage } from './error-message';
import { isActive } from './subscription-display';
import type { AccountUser, NavigateParams, NoInputMachineTypes, ToastParams } from './types';

export interface CheckoutContext {
  email: string | null;
}

export type CheckoutEvent =
  /** Subscribe Now; carries the current session state. */
  | { type: 'checkout.start'; user: AccountUser | null; subscription: Subscription | null }
  /** The page came back from the back/forward cache (`pageshow` with `persisted`): the button works again. */
  | { type: 'checkout.reset' };

const AUTH_REQUIRED_TOAST: ToastParams = {
  title: 'Authentication required',
  message: 'Please sign in to subscribe',
  color: 'yellow',
};
const ALREADY_SUBSCRIBED_TOAST: ToastParams = {
  title: 'Already subscribed',
  message: 'You already have an active subscription',
  color: 'blue',
};

export const checkoutMachine = setup({
  types: {} as NoInputMachineTypes<CheckoutContext, CheckoutEvent, 'busy'>,
  actors: {
    /**
     * POST /api/subscription/create-checkout {idToken, email} (the SPA takes the ID token from Firebase).
     * Resolves the hosted checkout's URL; any refusal (an API `error`, an answer without a URL) rejects
     * with an Error whose message is shown.
     */
    createCheckout: fromPromise<{ url: string }, { email: string }>(() =>
      Promise.reject(new Error('createCheckout not provided')),
    ),
  },
  actions: {
    showToast: (_args, _params: ToastParams) => {},
    navigate: (_args, _params: NavigateParams) => {},
    /** `window.location.assign(url)`. */
    redirectToCheckout: (_args, _params: { url: string }) => {},
    assignEmail: assign((_args, params: { email: string }) => ({ email: params.email })),
  },
  guards: {
    isSignedOut: (_args, params: { user: AccountUser | null }) => params.user === null,
    hasActiveSubscription: (_args, params: { subscription: Subscription | null }) => isActive(params.subscription),
  },
}).createMachine({
  id: 'checkout',
  context: { email: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'checkout.start': [
          {
            guard: { type: 'isSignedOut', params: ({ event }) => ({ user: event.user }) },
            actions: { type: 'showToast', params: AUTH_REQUIRED_TOAST },
          },
          {
            guard: { type: 'hasActiveSubscription', params: ({ event }) => ({ subscription: event.subscription }) },
            actions: [{ type: 'showToast', params: ALREADY_SUBSCRIBED_TOAST }, { type: 'navigate', params: { to: '/account' } }],
          },
          {
            target: 'creatingCheckout',
            actions: { type: 'assignEmail', params: ({ event }) => ({ email: event.user?.email ?? '' }) },
          },
        ],
      },
    },
    creatingCheckout: {
      tags: ['busy'],
      invoke: {
        id: 'createCheckout',
        src: 'createCheckout',
        input: ({ context }) => ({ email: context.email ?? '' }),
        onDone: {
          target: 'redirecting',
          actions: { type: 'redirectToCheckout', params: ({ event }) => ({ url: event.output.url }) },
        },
        onError: {
          target: 'idle',
          actions: {
            type: 'showToast',
            params: ({ event }) => ({
              title: 'Checkout failed',
              message: errorMessage(event.error, 'Please try again'),
              color: 'red' as const,
            }),
          },
        },
      },
    },
    redirecting: {
      tags: ['busy'],
      on: { 'checkout.reset': { target: 'idle' } },
    },
  },
});

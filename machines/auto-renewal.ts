/**
 * Subscription / auto-renewal machine: the account page's Subscription Status card.
 * Carries out spec §2 Account (Refresh Status, Turn Off Auto-Renewal with confirmation, Re-enable), §4
 * "Auto-renewal" and "Account actions" (refreshing, cancelling "Processing...", refresh after cancel), §5
 * (cancel does nothing without a signed-in user), §8 cancel toasts; design §4 (subscription / auto-renewal).
 */
import { fromPromise, setup } from 'xstate';
import type { AccountUser, ToastParams } from './types';

export interface AutoRenewalInput {
  user: AccountUser | null;
}

export type AutoRenewalContext = AutoRenewalInput;

export type AutoRenewalEvent =
  | { type: 'subscription.refresh' }
  /** Turn Off Auto-Renewal: opens the confirmation dialog. */
  | { type: 'autoRenewal.turnOff' }
  | { type: 'autoRenewal.confirm' }
  /** The dialog's cancel button, Escape, or a click outside. */
  | { type: 'autoRenewal.dismiss' }
  /** Re-enable: not done in the app (spec §4), a toast explains. */
  | { type: 'autoRenewal.reEnable' };

const CANCEL_SUCCESS_TOAST: ToastParams = {
  title: 'Subscription Cancelled',
  message: 'Your subscription will remain active until the end of your billing period.',
  color: 'green',
};
const CANCEL_FAILURE_FALLBACK = 'Failed to cancel subscription';
const RE_ENABLE_TOAST: ToastParams = {
  title: 'Auto-Renewal',
  message:
    'Auto-renewal cannot be turned back on here. Contact support, or subscribe again after your current period ends.',
  color: 'blue',
};

/**
 * Message of a failed cancel (spec §8): the error's text (the API client throws the API's `error` for
 * every refusal, `success: false` included); else the fallback; "Please try again" for a non-Error.
 */
export function cancelFailureMessage(failure: unknown): string {
  if (failure instanceof Error) return failure.message.trim() !== '' ? failure.message : CANCEL_FAILURE_FALLBACK;
  return 'Please try again';
}

const cancelFailureToast = (failure: unknown): ToastParams => ({
  title: 'Cancellation Failed',
  message: cancelFailureMessage(failure),
  color: 'red',
});

export const autoRenewalMachine = setup({
  types: {
    context: {} as AutoRenewalContext,
    input: {} as AutoRenewalInput,
    events: {} as AutoRenewalEvent,
    tags: {} as 'refreshing' | 'cancelling' | 'dialogOpen',
  },
  actors: {
    /** Refresh the session's subscription; resolves when done (e.g. send 'subscription.refresh' to the session and waitFor). */
    refreshSubscription: fromPromise<void>(() => Promise.reject(new Error('refreshSubscription not provided'))),
    /**
     * POST /api/subscription/cancel {idToken}. Resolves when the subscription is cancelled; any refusal
     * rejects with an Error (message shown) or anything else ("Please try again").
     */
    cancelSubscription: fromPromise<void, { user: AccountUser }>(() =>
      Promise.reject(new Error('cancelSubscription not provided')),
    ),
  },
  actions: {
    showToast: (_args, _params: ToastParams) => {},
  },
  guards: {
    isSignedIn: ({ context }) => context.user !== null,
  },
}).createMachine({
  id: 'autoRenewal',
  context: ({ input }) => ({ user: input.user }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'subscription.refresh': { target: 'refreshing' },
        'autoRenewal.turnOff': { target: 'confirmingTurnOff' },
        'autoRenewal.reEnable': { actions: { type: 'showToast', params: RE_ENABLE_TOAST } },
      },
    },
    refreshing: {
      tags: ['refreshing'],
      invoke: {
        id: 'refreshSubscription',
        src: 'refreshSubscription',
        onDone: { target: 'idle' },
        // The card keeps the last known subscription and its Refresh Status button.
        onError: { target: 'idle' },
      },
    },
    confirmingTurnOff: {
      tags: ['dialogOpen'],
      on: {
        'autoRenewal.confirm': [
          { guard: 'isSignedIn', target: 'cancelling' },
          // Spec §5: nothing is done without a signed-in user; the dialog closes.
          { target: 'idle' },
        ],
        'autoRenewal.dismiss': { target: 'idle' },
      },
    },
    cancelling: {
      tags: ['cancelling'],
      invoke: {
        id: 'cancelSubscription',
        src: 'cancelSubscription',
        input: ({ context }) => ({ user: context.user! }),
        onDone: { target: 'refreshing', actions: { type: 'showToast', params: CANCEL_SUCCESS_TOAST } },
        onError: { target: 'idle', actions: { type: 'showToast', params: ({ event }) => cancelFailureToast(event.error) } },
      },
    },
  },
});

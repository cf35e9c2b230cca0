/**
 * Subscription / auto-renewal machine: the account page's Subscription Status card.
 * Carries out spec §2 Account (Refresh Status, Turn Off Auto-Renewal with confirmation, Re-enable), §4
 * "Auto-renewal" and "Account actions" (refreshing, cancelling "Processing...", refresh after cancel), §5
 * (cancel does nothing without a signed-in user), §8 cancel toasts; design §4 (subscription / auto-renewal).
 * Issue 20 (design §8): Re-enable turns auto-renewal back on after a confirmation, as turning it off does
 * (the spec's toast-only answer is overridden); "Cancel and refund" claims the 30-day money-back guarantee
 * after a confirmation that says access ends now.
 */
import { fromPromise, setup } from 'xstate';
import { invokeCall } from './invoke-call';
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
  /** Re-enable: opens the confirmation dialog (design §8); its confirm and dismiss are the events above. */
  | { type: 'autoRenewal.reEnable' }
  /** Cancel and refund (30-day money-back guarantee): opens its confirmation dialog. */
  | { type: 'refund.start' }
  | { type: 'refund.confirm' }
  | { type: 'refund.dismiss' };

const CANCEL_SUCCESS_TOAST: ToastParams = {
  title: 'Subscription Cancelled',
  message: 'Your subscription will remain active until the end of your billing period.',
  color: 'green',
};
const CANCEL_FAILURE_FALLBACK = 'Failed to cancel subscription';
const RESUME_SUCCESS_TOAST: ToastParams = {
  title: 'Auto-Renewal On',
  message: 'Your subscription will renew automatically at the end of your billing period.',
  color: 'green',
};
const REFUND_SUCCESS_TOAST: ToastParams = {
  title: 'Refund Requested',
  message: 'Your subscription has ended and your payment is being refunded. It returns to your card within 5–7 business days.',
  color: 'green',
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

/** A failed resume or refund: the API's text (one owner: the API client), else "Please try again". */
const failureToast = (title: string, failure: unknown): ToastParams => ({
  title,
  message: failure instanceof Error && failure.message.trim() !== '' ? failure.message : 'Please try again',
  color: 'red',
});

export const autoRenewalMachine = setup({
  types: {
    context: {} as AutoRenewalContext,
    input: {} as AutoRenewalInput,
    events: {} as AutoRenewalEvent,
    tags: {} as 'refreshing' | 'cancelling' | 'dialogOpen' | 'resumeDialogOpen' | 'resuming' | 'refundDialogOpen' | 'refunding',
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
    /** POST /api/subscription/resume {idToken}: auto-renewal back on; any refusal rejects (as cancel). */
    resumeSubscription: fromPromise<void, { user: AccountUser }>(() =>
      Promise.reject(new Error('resumeSubscription not provided')),
    ),
    /** POST /api/subscription/refund {idToken}: the subscription ends now and the first payment is refunded. */
    refundSubscription: fromPromise<void, { user: AccountUser }>(() =>
      Promise.reject(new Error('refundSubscription not provided')),
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
        'autoRenewal.reEnable': { target: 'confirmingResume' },
        'refund.start': { target: 'confirmingRefund' },
      },
    },
    refreshing: {
      tags: ['refreshing'],
      // Either way the card keeps the last known subscription and its Refresh Status button.
      invoke: invokeCall('refreshSubscription', { onDone: 'idle', onError: 'idle' }),
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
    confirmingResume: {
      tags: ['resumeDialogOpen'],
      on: {
        'autoRenewal.confirm': [{ guard: 'isSignedIn', target: 'resuming' }, { target: 'idle' }],
        'autoRenewal.dismiss': { target: 'idle' },
      },
    },
    resuming: {
      tags: ['resumeDialogOpen', 'resuming'],
      invoke: {
        id: 'resumeSubscription',
        src: 'resumeSubscription',
        input: ({ context }) => ({ user: context.user! }),
        onDone: { target: 'refreshing', actions: { type: 'showToast', params: RESUME_SUCCESS_TOAST } },
        onError: { target: 'idle', actions: { type: 'showToast', params: ({ event }) => failureToast('Auto-Renewal Failed', event.error) } },
      },
    },
    confirmingRefund: {
      tags: ['refundDialogOpen'],
      on: {
        'refund.confirm': [{ guard: 'isSignedIn', target: 'refunding' }, { target: 'idle' }],
        'refund.dismiss': { target: 'idle' },
      },
    },
    refunding: {
      tags: ['refundDialogOpen', 'refunding'],
      invoke: {
        id: 'refundSubscription',
        src: 'refundSubscription',
        input: ({ context }) => ({ user: context.user! }),
        onDone: { target: 'refreshing', actions: { type: 'showToast', params: REFUND_SUCCESS_TOAST } },
        onError: { target: 'idle', actions: { type: 'showToast', params: ({ event }) => failureToast('Refund Failed', event.error) } },
      },
    },
  },
});

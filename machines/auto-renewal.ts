/**
 * Subscription / auto-renewal machine: the account page's Subscription Status card.
 * Carries out spec §2 Account (Refresh Status, Turn Off Auto-Renewal with confirmation, Re-enable), §4
 * "Auto-renewal" and "Account actions" (refreshing, cancelling "Processing...", refresh after cancel), §5
 * (cancel does nothing without a signed-in user), §8 cancel toasts; design §4 (subscription / auto-renewal).
 * Issue 20 (design §8): Re-enable turns auto-renewal back on after a confirmation, as turning it off does
 * (the spec's toast-only answer is overridden); "Cancel and refund" claims the money-back guarantee
 * after a confirmation that says access ends now.
 */
import { fromPromise, setup } from 'xstate';
import { ACCOUNT_CARDS, sendToCard } from './account-cards';
import { invokeCall } from './invoke-call';
import type { AccountUser, ToastParams } from './types';

interface AutoRenewalInput {
  user: AccountUser | null;
}

type AutoRenewalContext = AutoRenewalInput;

type AutoRenewalEvent =
  | { type: 'subscription.refresh' }
  /** Turn Off Auto-Renewal: opens the confirmation dialog. */
  | { type: 'autoRenewal.turnOff' }
  | { type: 'autoRenewal.confirm' }
  /** The dialog's cancel button, Escape, or a click outside. */
  | { type: 'autoRenewal.dismiss' }
  /** Re-enable: opens the confirmation dialog (design §8); its confirm and dismiss are the events above. */
  | { type: 'autoRenewal.reEnable' }
  /** Cancel and refund (the money-back guarantee): opens its confirmation dialog. */
  | { type: 'refund.start' }
  | { type: 'refund.confirm' }
  | { type: 'refund.dismiss' };

/** The three calls the card makes for the signed-in user, each after a confirmation. */
type SubscriptionCall = 'cancelSubscription' | 'resumeSubscription' | 'refundSubscription';

/** What each call says when it has worked (spec §8, design §8); the subscription is refreshed after. */
const DONE_TOASTS = {
  // Design §8: the plan is not cancelled (it stays active until its end date), so the title says what changed.
  cancelSubscription: {
    title: 'Auto-renewal is off',
    message: 'Your subscription will remain active until the end of your billing period.',
    color: 'green',
  },
  resumeSubscription: {
    title: 'Auto-Renewal On',
    message: 'Your subscription will renew automatically at the end of your billing period.',
    color: 'green',
  },
  refundSubscription: {
    title: 'Refund Requested',
    message: 'Your subscription has ended and your payment is being refunded. It returns to your card within 5–7 business days.',
    color: 'green',
  },
} as const satisfies Record<SubscriptionCall, ToastParams>;

const CANCEL_FAILURE_FALLBACK = 'Failed to cancel subscription';

/**
 * Message of a failed cancel (spec §8): the error's text (the API client throws the API's `error` for
 * every refusal, `success: false` included); else the fallback; "Please try again" for a non-Error.
 */
export function cancelFailureMessage(failure: unknown): string {
  if (failure instanceof Error) return failure.message.trim() !== '' ? failure.message : CANCEL_FAILURE_FALLBACK;
  return 'Please try again';
}

/** A failed resume or refund: the API's text (one owner: the API client), else "Please try again". */
const resumeOrRefundFailure = (failure: unknown): string =>
  failure instanceof Error && failure.message.trim() !== '' ? failure.message : 'Please try again';

/** What each call says when it has failed: its title, and the message made from the failure. */
const FAILURE_TOASTS = {
  cancelSubscription: { title: 'Cancellation Failed', message: cancelFailureMessage },
  resumeSubscription: { title: 'Auto-Renewal Failed', message: resumeOrRefundFailure },
  refundSubscription: { title: 'Refund Failed', message: resumeOrRefundFailure },
} as const satisfies Record<SubscriptionCall, { title: string; message: (failure: unknown) => string }>;

const failureToast = (call: SubscriptionCall, failure: unknown): ToastParams => ({
  title: FAILURE_TOASTS[call].title,
  message: FAILURE_TOASTS[call].message(failure),
  color: 'red',
});

type AutoRenewalTag = 'refreshing' | 'cancelling' | 'dialogOpen' | 'resumeDialogOpen' | 'resuming' | 'refundDialogOpen' | 'refunding';

const autoRenewalSetup = setup({
  types: {
    context: {} as AutoRenewalContext,
    input: {} as AutoRenewalInput,
    events: {} as AutoRenewalEvent,
    tags: {} as AutoRenewalTag,
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
    /** A refund adds an item to the billing history and closes the guarantee: that card reads it again. */
    reloadBillingHistory: sendToCard({ type: 'billingHistory.reload' }, ACCOUNT_CARDS.billingHistory),
    /** Auto-renewal off or on, and a refund, are entries of the Account activity card: it reads them again. */
    reloadActivity: sendToCard({ type: 'activity.reload' }, ACCOUNT_CARDS.activity),
  },
  guards: {
    isSignedIn: ({ context }) => context.user !== null,
  },
});

/**
 * A confirmation dialog, open while in this state (`tag`). Turn Off and Re-enable answer with the
 * `autoRenewal.*` events, Cancel and refund with `refund.*`. Confirming goes on to `call` (the state that makes
 * the call); without a signed-in user nothing is done and the dialog closes (spec §5), as it does when dismissed.
 */
function confirmation(tag: AutoRenewalTag, dialog: 'autoRenewal' | 'refund', call: 'cancelling' | 'resuming' | 'refunding') {
  const confirm = [{ guard: 'isSignedIn', target: call }, { target: 'idle' }] as const;
  const dismiss = { target: 'idle' } as const;
  return autoRenewalSetup.createStateConfig({
    tags: [tag],
    on:
      dialog === 'autoRenewal'
        ? { 'autoRenewal.confirm': confirm, 'autoRenewal.dismiss': dismiss }
        : { 'refund.confirm': confirm, 'refund.dismiss': dismiss },
  });
}

/**
 * Makes `call` for the signed-in user (the confirmation let no one else through): on success its toast and
 * `refreshing`, on failure its toast with the error's text and `idle`. `settled` runs after either answer.
 */
function subscriptionCall(call: SubscriptionCall, tags: AutoRenewalTag[], settled: Array<'reloadBillingHistory' | 'reloadActivity'>) {
  return autoRenewalSetup.createStateConfig({
    tags,
    invoke: {
      id: call,
      src: call,
      input: ({ context }) => ({ user: context.user! }),
      onDone: { target: 'refreshing', actions: [{ type: 'showToast', params: DONE_TOASTS[call] }, ...settled] },
      onError: {
        target: 'idle',
        actions: [{ type: 'showToast', params: ({ event }) => failureToast(call, event.error) }, ...settled],
      },
    },
  });
}

export const autoRenewalMachine = autoRenewalSetup.createMachine({
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
    // Turn Off, Re-enable, Cancel and refund: each its confirmation dialog, then its call. The turn-off dialog
    // closes as the cancel starts (the button reads "Processing..."); the other two stay open during their call.
    confirmingTurnOff: confirmation('dialogOpen', 'autoRenewal', 'cancelling'),
    // Every call, answered either way, reloads the Account activity card: one that failed late may have been made.
    cancelling: subscriptionCall('cancelSubscription', ['cancelling'], ['reloadActivity']),
    confirmingResume: confirmation('resumeDialogOpen', 'autoRenewal', 'resuming'),
    resuming: subscriptionCall('resumeSubscription', ['resumeDialogOpen', 'resuming'], ['reloadActivity']),
    confirmingRefund: confirmation('refundDialogOpen', 'refund', 'refunding'),
    // Either answer reloads the billing history card: a refund that failed late may still have been made.
    refunding: subscriptionCall('refundSubscription', ['refundDialogOpen', 'refunding'], ['reloadBillingHistory', 'reloadActivity']),
  },
});

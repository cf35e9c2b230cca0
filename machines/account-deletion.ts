/**
 * Account deletion machine: the account page's Danger Zone.
 * Carries out spec §2 Account (confirmation dialog, "Deleting Account..."), §4 "Account actions" (after a
 * delete: refresh, sign out, go to /), §5 (delete needs both email and uid), §8 delete toasts;
 * design §4 (account deletion) and §7 (the API also requires the session token; the actor adds it).
 */
import { fromPromise, setup } from 'xstate';
import { ACCOUNT_CARDS, sendToCard } from './account-cards';
import { invokeCall } from './invoke-call';
import { errorMessage } from './error-message';
import type { AccountUser, NavigateParams, ToastParams } from './types';

export interface AccountDeletionInput {
  user: AccountUser | null;
}

export type AccountDeletionContext = AccountDeletionInput;

export type AccountDeletionEvent =
  /** Delete Account: opens the "Are you absolutely sure?" dialog. */
  | { type: 'account.delete' }
  /** Delete Account Permanently. */
  | { type: 'account.confirmDelete' }
  /** Cancel, Escape, or a click outside. */
  | { type: 'account.cancelDelete' }
  /** "Turn Off Auto-Renewal instead": this dialog closes and the subscription card asks to turn it off. */
  | { type: 'account.turnOffAutoRenewalInstead' }
  /** "Cancel and Refund instead" (inside the money-back window): this dialog closes, the refund's opens. */
  | { type: 'account.refundInstead' };

const DELETE_SUCCESS_TOAST: ToastParams = {
  title: 'Account Deleted',
  message: 'Your account and all associated data have been permanently deleted.',
  color: 'green',
};
const DELETE_FAILURE_FALLBACK = 'Failed to delete account';

/** Spec §8: the error's text (the API client throws the API's `error` for every refusal), else the fallback. */
const deleteFailureToast = (failure: unknown): ToastParams => ({
  title: 'Deletion Failed',
  message: errorMessage(failure, DELETE_FAILURE_FALLBACK),
  color: 'red',
});

export const accountDeletionMachine = setup({
  types: {
    context: {} as AccountDeletionContext,
    input: {} as AccountDeletionInput,
    events: {} as AccountDeletionEvent,
    tags: {} as 'dialogOpen' | 'deleting',
  },
  actors: {
    /**
     * DELETE /api/auth/delete-account {email, userId, sessionToken}. Resolves when the account is deleted;
     * any refusal rejects with an Error.
     */
    deleteAccount: fromPromise<void, { user: AccountUser }>(() =>
      Promise.reject(new Error('deleteAccount not provided')),
    ),
    /** Refresh the session's subscription (spec §4: after a delete the subscription is refreshed). */
    refreshSubscription: fromPromise<void>(() => Promise.reject(new Error('refreshSubscription not provided'))),
  },
  actions: {
    showToast: (_args, _params: ToastParams) => {},
    navigate: (_args, _params: NavigateParams) => {},
    /**
     * The session ends, quietly (the "Account Deleted" toast is the message): `session.send({ type:
     * 'session.ended' })`, on which the session machine clears the stored tokens, then the provider
     * sign-out. Run after `navigate`, as the last thing this machine does: ending the session unmounts the
     * account page, and this machine with it.
     */
    endSession: () => {},
    /** The subscription card opens its own "Turn off auto-renewal?" dialog. */
    turnOffAutoRenewal: sendToCard({ type: 'autoRenewal.turnOff' }, ACCOUNT_CARDS.subscription),
    /** The subscription card opens its "Cancel and get a refund?" dialog (issue 34: a week-one deleter is owed it). */
    askForRefund: sendToCard({ type: 'refund.start' }, ACCOUNT_CARDS.subscription),
  },
  guards: {
    hasEmailAndUid: ({ context }) => Boolean(context.user?.email) && Boolean(context.user?.uid),
  },
}).createMachine({
  id: 'accountDeletion',
  context: ({ input }) => ({ user: input.user }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'account.delete': { target: 'confirming' } },
    },
    confirming: {
      tags: ['dialogOpen'],
      on: {
        // Spec §5: without both an email and a uid nothing happens (the dialog stays open).
        'account.confirmDelete': { guard: 'hasEmailAndUid', target: 'deleting' },
        'account.cancelDelete': { target: 'idle' },
        'account.turnOffAutoRenewalInstead': { target: 'idle', actions: 'turnOffAutoRenewal' },
        'account.refundInstead': { target: 'idle', actions: 'askForRefund' },
      },
    },
    deleting: {
      tags: ['dialogOpen', 'deleting'],
      invoke: {
        id: 'deleteAccount',
        src: 'deleteAccount',
        input: ({ context }) => ({ user: context.user! }),
        onDone: { target: 'refreshingSubscription', actions: { type: 'showToast', params: DELETE_SUCCESS_TOAST } },
        onError: { target: 'confirming', actions: { type: 'showToast', params: ({ event }) => deleteFailureToast(event.error) } },
      },
    },
    refreshingSubscription: {
      tags: ['deleting'],
      // The account is gone; a failed refresh must not stop the sign-out.
      invoke: invokeCall('refreshSubscription', { onDone: 'deleted', onError: 'deleted' }),
    },
    deleted: {
      type: 'final',
      entry: [{ type: 'navigate', params: { to: '/' } }, 'endSession'],
    },
  },
});

/**
 * The account page's Billing history card (issue 20, item 2): the account's charges and refunds, and
 * until when the money-back guarantee can be claimed. Reloaded after a change that adds an item
 * (a refund) or when the customer asks.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { BillingItem } from '../contract/api';
import { errorMessage } from './error-message';
import { ACCOUNT_CARDS, sendToCard } from './account-cards';
import type { NoInputMachineTypes } from './types';

export interface BillingHistory {
  items: BillingItem[];
  refundableUntil: string | null;
}

export interface BillingHistoryContext extends BillingHistory {
  error: string | null;
}

export type BillingHistoryEvent =
  | { type: 'billingHistory.reload' }
  /** "Cancel and refund" under the guarantee: the subscription card confirms and makes the refund. */
  | { type: 'billingHistory.refund' };

export const billingHistoryMachine = setup({
  types: {} as NoInputMachineTypes<BillingHistoryContext, BillingHistoryEvent, 'loading'>,
  actors: {
    /** POST /api/billing/history {sessionToken}. */
    loadBillingHistory: fromPromise<BillingHistory>(() => Promise.reject(new Error('loadBillingHistory not provided'))),
  },
  actions: {
    assignHistory: assign((_args, params: BillingHistory) => ({ ...params, error: null })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
    /** The subscription card opens its "Cancel and get a refund?" dialog. */
    askForRefund: sendToCard({ type: 'refund.start' }, ACCOUNT_CARDS.subscription),
  },
}).createMachine({
  id: 'billingHistory',
  context: { items: [], refundableUntil: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      // The money-back offer shows under the list whatever the list is doing.
      on: { 'billingHistory.refund': { actions: 'askForRefund' } },
      invoke: {
        id: 'loadBillingHistory',
        src: 'loadBillingHistory',
        onDone: { target: 'ready', actions: { type: 'assignHistory', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not load your billing history') }) },
        },
      },
    },
    ready: { on: { 'billingHistory.reload': 'loading', 'billingHistory.refund': { actions: 'askForRefund' } } },
    failed: { on: { 'billingHistory.reload': 'loading', 'billingHistory.refund': { actions: 'askForRefund' } } },
  },
});

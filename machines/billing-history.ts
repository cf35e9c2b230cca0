/**
 * The account page's Billing history card (issue 20, item 2): the account's charges and refunds, and
 * until when the money-back guarantee can be claimed. Reloaded after a change that adds an item
 * (a refund) or when the customer asks.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { BillingItem } from '../contract/api';
import { errorMessage } from './error-message';
import type { NoInputMachineTypes } from './types';

export interface BillingHistory {
  items: BillingItem[];
  refundableUntil: string | null;
}

export interface BillingHistoryContext extends BillingHistory {
  error: string | null;
}

export type BillingHistoryEvent = { type: 'billingHistory.reload' };

export const billingHistoryMachine = setup({
  types: {} as NoInputMachineTypes<BillingHistoryContext, BillingHistoryEvent, 'loading'>,
  actors: {
    /** POST /api/billing/history {sessionToken}. */
    loadBillingHistory: fromPromise<BillingHistory>(() => Promise.reject(new Error('loadBillingHistory not provided'))),
  },
  actions: {
    assignHistory: assign((_args, params: BillingHistory) => ({ ...params, error: null })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
  },
}).createMachine({
  id: 'billingHistory',
  context: { items: [], refundableUntil: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
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
    ready: { on: { 'billingHistory.reload': 'loading' } },
    failed: { on: { 'billingHistory.reload': 'loading' } },
  },
});

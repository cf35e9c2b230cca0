/**
 * The account page's Account activity card (issue 30, item 6): what happened to the account, newest
 * first, days only; loaded with the page, and again when the customer asks.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ActivityItem } from '../contract/account-activity';
import { errorMessage } from './error-message';
import type { NoInputMachineTypes } from './types';

export interface AccountActivityContext {
  items: ActivityItem[];
  error: string | null;
}

export type AccountActivityEvent = { type: 'activity.reload' };

export const accountActivityMachine = setup({
  types: {} as NoInputMachineTypes<AccountActivityContext, AccountActivityEvent, 'loading'>,
  actors: {
    /** POST /api/account/activity {sessionToken}. */
    loadActivity: fromPromise<ActivityItem[]>(() => Promise.reject(new Error('loadActivity not provided'))),
  },
  actions: {
    assignItems: assign((_args, params: { items: ActivityItem[] }) => ({ items: params.items, error: null })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
  },
}).createMachine({
  id: 'accountActivity',
  context: { items: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadActivity',
        src: 'loadActivity',
        onDone: { target: 'ready', actions: { type: 'assignItems', params: ({ event }) => ({ items: event.output }) } },
        onError: {
          target: 'failed',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not load your account activity') }) },
        },
      },
    },
    ready: { on: { 'activity.reload': 'loading' } },
    failed: { on: { 'activity.reload': 'loading' } },
  },
});

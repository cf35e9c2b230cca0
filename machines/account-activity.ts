/**
 * The account page's Account activity card (issue 30, item 6): what happened to the account, newest
 * first, days only; loaded with the page, and again when the customer asks. A page at a time (issue 45,
 * T25): "Show more" loads the next page after the last one shown, while the API says there is one.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AccountActivityPage } from '../contract/api';
import type { ActivityItem } from '../contract/account-activity';
import { errorMessage } from './error-message';
import type { NoInputMachineTypes } from './types';

export interface AccountActivityContext {
  items: ActivityItem[];
  /** Where the next page starts; null when every entry is shown. */
  nextCursor: string | null;
  error: string | null;
  /** Why the last "Show more" failed (the entries shown stay). */
  moreError: string | null;
}

export type AccountActivityEvent = { type: 'activity.reload' } | { type: 'activity.more' };

export const accountActivityMachine = setup({
  types: {} as NoInputMachineTypes<AccountActivityContext, AccountActivityEvent, 'loading' | 'loadingMore'>,
  actors: {
    /** POST /api/account/activity {sessionToken, cursor?}: a page, and the cursor of the next. */
    loadActivity: fromPromise<AccountActivityPage, { cursor: string | null }>(() => Promise.reject(new Error('loadActivity not provided'))),
  },
  actions: {
    assignPage: assign((_args, params: { page: AccountActivityPage }) => ({ items: params.page.items, nextCursor: params.page.nextCursor, error: null, moreError: null })),
    appendPage: assign(({ context }, params: { page: AccountActivityPage }) => ({
      items: [...context.items, ...params.page.items],
      nextCursor: params.page.nextCursor,
      moreError: null,
    })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
    assignMoreError: assign((_args, params: { message: string }) => ({ moreError: params.message })),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
  },
}).createMachine({
  id: 'accountActivity',
  context: { items: [], nextCursor: null, error: null, moreError: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadActivity',
        src: 'loadActivity',
        input: () => ({ cursor: null }),
        onDone: { target: 'ready', actions: { type: 'assignPage', params: ({ event }) => ({ page: event.output }) } },
        onError: {
          target: 'failed',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not load your account activity') }) },
        },
      },
    },
    ready: {
      on: {
        'activity.reload': 'loading',
        'activity.more': { guard: 'hasMore', target: 'loadingMore' },
      },
    },
    loadingMore: {
      tags: ['loadingMore'],
      // A change elsewhere on the page (a device signed out) starts again from the newest.
      on: { 'activity.reload': 'loading' },
      invoke: {
        id: 'loadMoreActivity',
        src: 'loadActivity',
        input: ({ context }) => ({ cursor: context.nextCursor }),
        onDone: { target: 'ready', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
        onError: {
          target: 'ready',
          actions: { type: 'assignMoreError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not load more of your account activity') }) },
        },
      },
    },
    failed: { on: { 'activity.reload': 'loading' } },
  },
});

/**
 * The /staff console's search and customer page (issue 30, item 7): search, the results, one customer
 * opened from them. A caller the API does not take as staff (403 `staff_forbidden`, or no ID token) ends
 * in `notFound`: the console shows a plain "not found", never that a console exists. A caller whose
 * provider sign-in must be renewed first (a role just granted revokes the old one: `npm run staff:grant`)
 * ends in `signInNeeded` (issue 45 T12): the page asks them to sign in again, and /signin brings them back.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { StaffCustomer, StaffCustomerSummary } from '../contract/api';
import type { StaffRole } from '../contract/staff';
import { errorMessage } from './error-message';
import type { NoInputMachineTypes } from './types';

export interface StaffSearchContext {
  query: string;
  role: StaffRole | null;
  customers: StaffCustomerSummary[];
  /** The customer opened, by id, and what the API answered about them. */
  userId: string | null;
  customer: StaffCustomer | null;
  error: string | null;
}

export type StaffSearchEvent =
  | { type: 'search.submit'; query: string }
  | { type: 'customer.open'; userId: string }
  | { type: 'customer.reload' }
  | { type: 'customer.close' };

/** A loadRole failure of this code means the provider's sign-in must be renewed (its token could not be refreshed). */
export const SIGN_IN_AGAIN = 'sign_in_again';

/** Whether a failure means "not staff" (the console is then not found). */
const isForbidden = (error: unknown) => {
  const { code, status } = (error ?? {}) as { code?: unknown; status?: unknown };
  return code === 'staff_forbidden' || code === 'token_invalid' || status === 403;
};

export const staffSearchMachine = setup({
  types: {} as NoInputMachineTypes<StaffSearchContext, StaffSearchEvent, 'busy'>,
  actors: {
    /** The caller's role from their ID token's claim (null: none); the API decides for itself. */
    loadRole: fromPromise<StaffRole | null>(() => Promise.reject(new Error('loadRole not provided'))),
    /** POST /api/staff/search {idToken, query}. */
    searchCustomers: fromPromise<{ role: StaffRole; customers: StaffCustomerSummary[] }, { query: string }>(() =>
      Promise.reject(new Error('searchCustomers not provided')),
    ),
    /** POST /api/staff/customer {idToken, userId}. */
    loadCustomer: fromPromise<{ role: StaffRole; customer: StaffCustomer }, { userId: string }>(() =>
      Promise.reject(new Error('loadCustomer not provided')),
    ),
  },
  actions: {
    assignQuery: assign((_args, params: { query: string }) => ({ query: params.query })),
    assignRole: assign((_args, params: { role: StaffRole | null }) => ({ role: params.role })),
    assignResults: assign((_args, params: { role: StaffRole; customers: StaffCustomerSummary[] }) => ({ ...params, error: null })),
    assignUserId: assign((_args, params: { userId: string }) => ({ userId: params.userId, customer: null })),
    assignCustomer: assign((_args, params: { role: StaffRole; customer: StaffCustomer }) => ({ ...params, error: null })),
    clearCustomer: assign({ userId: null, customer: null }),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
  },
  guards: {
    hasRole: (_args, params: { role: StaffRole | null }) => params.role !== null,
    isForbidden: (_args, params: { error: unknown }) => isForbidden(params.error),
    needsSignIn: (_args, params: { error: unknown }) => (params.error as { code?: unknown } | null)?.code === SIGN_IN_AGAIN,
  },
}).createMachine({
  id: 'staffSearch',
  context: { query: '', role: null, customers: [], userId: null, customer: null, error: null },
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'loadRole',
        src: 'loadRole',
        onDone: [
          { guard: { type: 'hasRole', params: ({ event }) => ({ role: event.output }) }, target: 'results', actions: { type: 'assignRole', params: ({ event }) => ({ role: event.output }) } },
          { target: 'notFound' },
        ],
        onError: [{ guard: { type: 'needsSignIn', params: ({ event }) => ({ error: event.error }) }, target: 'signInNeeded' }, { target: 'notFound' }],
      },
    },
    signInNeeded: { type: 'final' },
    searching: {
      tags: ['busy'],
      invoke: {
        id: 'searchCustomers',
        src: 'searchCustomers',
        input: ({ context }) => ({ query: context.query }),
        onDone: { target: 'results', actions: { type: 'assignResults', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isForbidden', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'results', actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'The search failed') }) } },
        ],
      },
    },
    results: {
      on: {
        'search.submit': { target: 'searching', actions: { type: 'assignQuery', params: ({ event }) => ({ query: event.query }) } },
        'customer.open': { target: 'opening', actions: { type: 'assignUserId', params: ({ event }) => ({ userId: event.userId }) } },
      },
    },
    opening: {
      tags: ['busy'],
      invoke: {
        id: 'loadCustomer',
        src: 'loadCustomer',
        input: ({ context }) => ({ userId: context.userId ?? '' }),
        onDone: { target: 'customer', actions: { type: 'assignCustomer', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isForbidden', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          {
            target: 'results',
            actions: [{ type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not open the customer') }) }, 'clearCustomer'],
          },
        ],
      },
    },
    customer: {
      on: {
        'customer.reload': 'opening',
        'customer.close': { target: 'results', actions: 'clearCustomer' },
        'search.submit': { target: 'searching', actions: ['clearCustomer', { type: 'assignQuery', params: ({ event }) => ({ query: event.query }) }] },
      },
    },
    notFound: { type: 'final' },
  },
});

/**
 * The public /status page (issue 48, item 2) and the staff console's server table: every VPN server's state
 * from `GET /api/vpn/servers/status`, fetched on open and again every STATUS_REFRESH_MS while the page is
 * open. A failed fetch keeps the last answer (the page shows it with its age and says it is retrying) and
 * tries again after STATUS_RETRY_MS.
 *
 * /status fetches its first figures before this machine has loaded (src/features/status/status-first-figures.ts:
 * XState is not on the page's first load) and starts it with their outcome as input: the machine opens where
 * the page already is, `shown` or `failed`, and owns every fetch after. Without input (the staff console) it
 * fetches on open.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ServersStatusAnswer } from '../contract/relay';

/** Time between two fetches while the page is open (docs/decisions.md). */
export const STATUS_REFRESH_MS = 30_000;
/** Time before trying again after a failed fetch. */
export const STATUS_RETRY_MS = 10_000;

/**
 * One answer and when the page received it (the service's clock: the machine reads none). The answer's own
 * `updatedAt` can be older: the API answers "unchanged" (304) to a browser holding the same figures, which
 * then reads its cached copy; receiving it still confirms the figures now.
 */
export interface ServerStatusReading {
  status: ServersStatusAnswer;
  /** Milliseconds since the epoch. */
  receivedAt: number;
}

/** The outcome of the page's own first fetch, made before the machine loaded. */
export type FirstFigures = { outcome: 'received'; reading: ServerStatusReading } | { outcome: 'failed' };

export interface ServerStatusInput {
  /** Omitted: nothing fetched yet, the machine fetches on open. */
  first?: FirstFigures;
}

interface ServerStatusContext {
  /** The last answer the API gave, kept through failures. */
  status: ServersStatusAnswer | null;
  /** When it was received (ms since the epoch): "Updated N seconds ago" counts from it. */
  receivedAt: number | null;
  /** Set while the last fetch failed; cleared by the next answer. */
  failed: boolean;
}

type ServerStatusEvent = { type: 'status.refresh' };

const serverStatusSetup = setup({
  types: {
    context: {} as ServerStatusContext,
    input: {} as ServerStatusInput,
    events: {} as ServerStatusEvent,
    tags: {} as 'fetching',
  },
  actors: {
    /** GET /api/vpn/servers/status. */
    fetchServerStatus: fromPromise<ServerStatusReading>(() => Promise.reject(new Error('fetchServerStatus not provided'))),
  },
  actions: {
    assignStatus: assign((_args, params: ServerStatusReading) => ({ status: params.status, receivedAt: params.receivedAt, failed: false })),
    markFailed: assign(() => ({ failed: true })),
  },
  guards: {
    hasStatus: ({ context }) => context.status !== null,
    hasFailed: ({ context }) => context.failed,
  },
  delays: {
    statusRefresh: STATUS_REFRESH_MS,
    statusRetry: STATUS_RETRY_MS,
  },
});

/** A fetch, the same whether nothing is shown yet (`loading`) or the last answer stays on screen (`refreshing`). */
const fetching = serverStatusSetup.createStateConfig({
  tags: ['fetching'],
  invoke: {
    id: 'fetchServerStatus',
    src: 'fetchServerStatus',
    onDone: { target: 'shown', actions: { type: 'assignStatus', params: ({ event }) => event.output } },
    onError: { target: 'failed', actions: 'markFailed' },
  },
});

export const serverStatusMachine = serverStatusSetup.createMachine({
  id: 'serverStatus',
  context: ({ input }) =>
    input.first?.outcome === 'received'
      ? { status: input.first.reading.status, receivedAt: input.first.reading.receivedAt, failed: false }
      : { status: null, receivedAt: null, failed: input.first?.outcome === 'failed' },
  initial: 'opening',
  states: {
    // Where the page already is: its first figures shown, its first fetch failed, or nothing fetched yet.
    opening: {
      always: [{ guard: 'hasStatus', target: 'shown' }, { guard: 'hasFailed', target: 'failed' }, { target: 'loading' }],
    },
    // Nothing to show yet.
    loading: fetching,
    shown: {
      after: { statusRefresh: 'refreshing' },
      on: { 'status.refresh': 'refreshing' },
    },
    // The last answer stays on screen while the next one is fetched.
    refreshing: fetching,
    failed: {
      after: { statusRetry: [{ guard: 'hasStatus', target: 'refreshing' }, { target: 'loading' }] },
      on: { 'status.refresh': [{ guard: 'hasStatus', target: 'refreshing' }, { target: 'loading' }] },
    },
  },
});

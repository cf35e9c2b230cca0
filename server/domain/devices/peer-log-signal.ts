/**
 * The wake-up of a waiting relay (issue 47, item 2; design §7f): the peer_log table's trigger (migration
 * 0016) sends NOTIFY veil_peer_log at the commit of every change to the list, on PostgreSQL to every API
 * instance and on PGlite in the process. Each instance listens once, on a connection of its own, and fans the
 * notification out in memory, so a waiting request holds no database connection, only a listener.
 */
import { EventEmitter } from 'node:events';
import type { Database } from '../store.ts';

const CHANNEL = 'veil_peer_log';

type WaitOutcome = 'changed' | 'timeout' | 'released';

/** One waiting request's view: every notification since it was made counts, none is lost between reads. */
interface PeerLogWaiter {
  /** Resolves at the next change (at once if one came since the last call), after `ms`, or when released. */
  next: (ms: number) => Promise<WaitOutcome>;
  dispose: () => void;
}

export interface PeerLogSignal {
  /** Starts hearing changes; `released` ends it early (the client went away). Make it before reading the list. */
  waiter: (released: AbortSignal) => PeerLogWaiter;
  /** How many requests wait now. */
  waiting: () => number;
  /** Counts the changes heard: an answer cached at one count is stale at another. */
  generation: () => number;
  /** Releases every waiter (the server closes) and stops listening. */
  close: () => Promise<void>;
}

export async function startPeerLogSignal(database: Pick<Database, 'listen'>): Promise<PeerLogSignal> {
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  let closed = false;
  let generation = 0;
  const stop = await database.listen(CHANNEL, () => {
    generation += 1;
    changes.emit('change');
  });

  return {
    waiter: (released) => {
      let pending = false;
      let wake: ((outcome: WaitOutcome) => void) | null = null;
      const onChange = () => {
        pending = true;
        wake?.('changed');
      };
      const onRelease = () => wake?.('released');
      changes.on('change', onChange);
      changes.on('close', onRelease);
      released.addEventListener('abort', onRelease);
      return {
        next: (ms) => {
          if (pending) {
            pending = false;
            return Promise.resolve('changed');
          }
          if (closed || released.aborted) return Promise.resolve('released');
          return new Promise<WaitOutcome>((resolve) => {
            const timer = setTimeout(() => settle('timeout'), ms);
            const settle = (outcome: WaitOutcome) => {
              clearTimeout(timer);
              wake = null;
              pending = false;
              resolve(outcome);
            };
            wake = settle;
          });
        },
        dispose: () => {
          changes.off('change', onChange);
          changes.off('close', onRelease);
          released.removeEventListener('abort', onRelease);
          wake?.('released');
        },
      };
    },
    waiting: () => changes.listenerCount('change'),
    generation: () => generation,
    close: async () => {
      if (closed) return;
      closed = true;
      changes.emit('close');
      await stop();
    },
  };
}

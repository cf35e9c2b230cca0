/**
 * The server-status machine as a named child of the app's system, with a clock for "Updated N seconds ago":
 * what /status and the staff console's server table draw (src/screens/server-status-board.tsx).
 */
import { useEffect, useState } from 'react';
import type { ServerStatusInput } from '../../../machines/server-status';
import { provideServerStatus } from '../flows/server-status-services';
import { useAppMachine } from './use-app-machine';

const machine = provideServerStatus();

/** The time now, renewed every second while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * Fresh figures as soon as someone looks again: the tab shown again, or the browser back online, asks
 * for them at once instead of waiting out the machine's refresh delay.
 */
function useRefreshOnReturn(send: (event: { type: 'status.refresh' }) => void): void {
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'visible') send({ type: 'status.refresh' });
    };
    document.addEventListener('visibilitychange', refresh);
    window.addEventListener('online', refresh);
    return () => {
      document.removeEventListener('visibilitychange', refresh);
      window.removeEventListener('online', refresh);
    };
  }, [send]);
}

/**
 * `name`: the actor's name in the system (the inspector's label); `provided`: the machine with its fetch, the
 * public status by default (the staff console passes its own, with each server's applied version); `input`:
 * the outcome of a first fetch the page made before the machine loaded (/status), read once, on the first render.
 */
export function useServerStatus(name: string, provided: typeof machine = machine, input: ServerStatusInput = {}) {
  const [state, send] = useAppMachine(provided, name, input);
  useRefreshOnReturn(send);
  const now = useNow();
  return { status: state.context.status, receivedAt: state.context.receivedAt, failed: state.context.failed, now };
}

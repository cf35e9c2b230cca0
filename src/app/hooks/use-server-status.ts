/**
 * The server-status machine as a named child of the app's system, with a clock for "Updated N seconds ago":
 * what /status and the staff console's server table draw (src/screens/server-status-board.tsx).
 */
import { useEffect, useState } from 'react';
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

/** `name`: the actor's name in the system (the inspector's label). */
export function useServerStatus(name: string) {
  const [state] = useAppMachine(machine, name, {});
  const now = useNow();
  return { status: state.context.status, receivedAt: state.context.receivedAt, failed: state.context.failed, now };
}

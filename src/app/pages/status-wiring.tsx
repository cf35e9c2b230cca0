/**
 * /status's figures: the server-status machine (a named child of the app's system) and a clock for
 * "Updated N seconds ago". Its own chunk (./status.tsx loads it once the page is hydrated), so the
 * prerendered page hydrates without XState or the API client (issue 25).
 */
import { useEffect, useState } from 'react';
import { provideServerStatus } from '../flows/server-status-services';
import { useAppMachine } from '../hooks/use-app-machine';
import { StatusPage } from '../../screens/status-page';

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

export function StatusWiring() {
  const [state] = useAppMachine(machine, 'status.servers', {});
  const now = useNow();
  return <StatusPage status={state.context.status} failed={state.context.failed} now={now} />;
}

/**
 * /status's figures: the server-status machine and its clock (use-server-status.ts). Its own chunk
 * (./status.tsx loads it once the page is hydrated), so the prerendered page hydrates without XState or
 * the API client (issue 25).
 */
import { useServerStatus } from '../../app/hooks/use-server-status';
import { StatusPage } from '../../screens/status-page';

export function StatusWiring() {
  return <StatusPage {...useServerStatus('status.servers')} />;
}

/**
 * /status's refreshes: the server-status machine and its clock (use-server-status.ts), started where the
 * page's first fetch left it. Its own chunk (XState and the machine), which ./status.tsx loads at idle once
 * the first figures are on screen, so the page shows them without it (issue 48 item 2).
 */
import type { FirstFigures } from '../../../machines/server-status';
import { useServerStatus } from '../../app/hooks/use-server-status';
import { StatusPage } from '../../screens/status-page';

export function StatusWiring({ first }: { first: FirstFigures }) {
  return <StatusPage {...useServerStatus('status.servers', undefined, { first })} />;
}

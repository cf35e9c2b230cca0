import { Suspense, lazy, startTransition, useEffect, useState } from 'react';
import type { FirstFigures } from '../../../machines/server-status';
import { whenIdle } from '../../app/boot/main-thread';
import { StatusPage } from '../../screens/status-page';
import { mantinePage } from '../../app/frame/mantine-page';
import { useFirstFigures } from './status-first-figures';

// The refreshes' code (XState, the machine) loads at idle once the first figures are drawn: the page's first
// load and its first figures stay as light as the other public pages (issue 48 item 2; docs/performance.md).
const StatusWiring = lazy(() => import('./status-wiring').then((module) => ({ default: module.StatusWiring })));

/** What the board shows before the machine runs: loading, then the first figures or "cannot be fetched". */
function firstView(first: FirstFigures | null) {
  if (first?.outcome === 'received') return { status: first.reading.status, receivedAt: first.reading.receivedAt, failed: false, now: first.reading.receivedAt };
  return { status: null, receivedAt: null, failed: first?.outcome === 'failed', now: 0 };
}

/**
 * True once the browser is idle after `ready` turned true. Set in a transition: while the machine's chunk
 * loads, React keeps the first figures on screen instead of the Suspense fallback (which it would hold for
 * at least 300 ms, and draw as a second copy of the board).
 */
function useIdleAfter(ready: boolean): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => (ready ? whenIdle(() => startTransition(() => setIdle(true))) : undefined), [ready]);
  return idle;
}

/**
 * /status (src/routes/_mantine/status.tsx shows it under the router): prerendered loading, then the first
 * figures from one plain fetch, then the server-status machine, at idle, for the refreshes.
 */
export function Status() {
  const first = useFirstFigures();
  const machineDue = useIdleAfter(first !== null);
  const page = <StatusPage {...firstView(first)} />;
  // The boundary is there from the first render, so the machine's arrival is one swap of the board.
  return <Suspense fallback={page}>{machineDue && first !== null ? <StatusWiring first={first} /> : page}</Suspense>;
}

export const PublicPage = mantinePage(Status);

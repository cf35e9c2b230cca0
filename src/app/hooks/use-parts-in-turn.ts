import { startTransition, useEffect, useState } from 'react';
import { yieldToMain } from '../boot/main-thread';

/**
 * How many of a page's `total` parts to render now: `first` at once, then one more in each later task, each
 * its own render and commit (issue 32 item 4). The account page's eight cards rendered in one commit were
 * one long task on a phone (about 400 ms at a phone's speed, TBT's largest share); a card per commit keeps
 * every task short, so the first cards show sooner and a tap is answered meanwhile.
 */
export function usePartsInTurn(total: number, first: number): number {
  const [shown, setShown] = useState(() => Math.min(first, total));
  useEffect(() => {
    if (shown >= total) return;
    let cancelled = false;
    void yieldToMain().then(() => {
      if (!cancelled) startTransition(() => setShown((count) => Math.min(count + 1, total)));
    });
    return () => {
      cancelled = true;
    };
  }, [shown, total]);
  return shown;
}

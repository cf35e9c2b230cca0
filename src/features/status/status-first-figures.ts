/**
 * /status's first figures, without XState, ky or zod (issue 48 item 2; docs/performance.md): one plain
 * fetch as the page opens, whose outcome the page draws at once and hands to the server-status machine as
 * its starting input when that machine loads, at idle (./status.tsx). The machine owns every fetch after
 * this one.
 */
import { useEffect, useState } from 'react';
import type { FirstFigures } from '../../../machines/server-status';
import { fetchServersStatus } from '../../services/servers-status';

/** The first fetch's outcome; never throws: anything but an answer of the right shape is "failed". */
export async function fetchFirstFigures(signal?: AbortSignal): Promise<FirstFigures> {
  try {
    const status = await fetchServersStatus(signal);
    return { outcome: 'received', reading: { status, receivedAt: Date.now() } };
  } catch {
    return { outcome: 'failed' };
  }
}

/**
 * The first figures once fetched; null before (the prerendered "Loading the server status…", so hydration
 * matches the HTML). Fetched once per mount, after hydration; a page left before the answer stops the request.
 */
export function useFirstFigures(): FirstFigures | null {
  const [first, setFirst] = useState<FirstFigures | null>(null);
  useEffect(() => {
    const request = new AbortController();
    void fetchFirstFigures(request.signal).then((figures) => {
      if (!request.signal.aborted) setFirst(figures);
    });
    return () => request.abort();
  }, []);
  return first;
}

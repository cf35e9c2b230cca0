import { vi } from 'vitest';

/**
 * The SPA calls `/api/…` on its own origin; in node there is no origin, so relative URLs given to `fetch`
 * and to `Request` (ky builds one) resolve against `base`, a local server the test runs. Undo with
 * `vi.unstubAllGlobals()`.
 */
export function resolveRelativeUrlsAgainst(base: string): void {
  const NodeRequest = globalThis.Request;
  vi.stubGlobal(
    'Request',
    class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, base) : input, init);
      }
    },
  );
  const nodeFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => nodeFetch(typeof input === 'string' ? new URL(input, base) : input, init));
}

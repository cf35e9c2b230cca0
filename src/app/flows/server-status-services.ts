/**
 * The server-status machine (/status) with its browser implementation: the API's public
 * GET /api/vpn/servers/status, fetched with the browser's `fetch` and checked by hand (src/services/servers-status.ts),
 * as the page's first figures are. Loaded at idle after those figures, so /status evaluates neither the API
 * client (ky, zod) nor XState before it shows them. The staff console provides its own fetch.
 */
import { fromPromise } from 'xstate';
import { serverStatusMachine, type ServerStatusReading } from '../../../machines/server-status';
import { fetchServersStatus } from '../../services/servers-status';

export function provideServerStatus() {
  return serverStatusMachine.provide({
    actors: {
      fetchServerStatus: fromPromise<ServerStatusReading>(async ({ signal }) => ({ status: await fetchServersStatus(signal), receivedAt: Date.now() })),
    },
  });
}

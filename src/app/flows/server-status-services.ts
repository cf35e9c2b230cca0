/**
 * The server-status machine (/status, the staff console's server table) with its browser implementation:
 * the API's public GET /api/vpn/servers/status. Loaded with the page's status wiring, after hydration, so
 * the page's first load carries neither XState nor the API client.
 */
import { fromPromise } from 'xstate';
import { serverStatusMachine, type ServerStatusReading } from '../../../machines/server-status';
import { api } from '../../services/api-client';

export function provideServerStatus() {
  return serverStatusMachine.provide({
    actors: {
      fetchServerStatus: fromPromise<ServerStatusReading>(async () => ({ status: await api.serversStatus(), receivedAt: Date.now() })),
    },
  });
}

/** A WireGuard device's removal confirmed by every VPN server (issue 47 item 2): the status call, the lagging servers named. */
import { fromPromise } from 'xstate';
import type { VpnServer } from '../../../../contract/api';
import { removalConfirmationMachine, serverNames } from '../../../../machines/removal-confirmation';
import type { AppActors } from '../../../app/actors/app-actors';
import { api } from '../../../services/api-client';
import { currentSessionToken, toast, withSession } from '../session-calls';

export function provideRemovalConfirmation(actors: AppActors) {
  // The server list names the lagging ids; loaded once, and only when a server lags.
  let servers: Promise<VpnServer[]> | null = null;
  return removalConfirmationMachine.provide({
    actors: {
      checkRemoval: fromPromise(async ({ input }) => {
        const answer = await withSession(actors, () => api.removalStatus(currentSessionToken(actors), input.version));
        if (answer.confirmed) return { confirmed: true, lagging: [] };
        servers ??= api.vpnServers().catch(() => {
          servers = null;
          return [];
        });
        return { confirmed: false, lagging: serverNames(answer.lagging, await servers) };
      }),
    },
    actions: { showToast: toast },
  });
}

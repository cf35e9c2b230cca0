/** "Add a device" / "Replace key": the add-device machine with its calls (public key only), the key maker and the sign-in again. */
import { fromPromise } from 'xstate';
import { addDeviceMachine } from '../../../../machines/add-device';
import { joinServerStatus } from '../../../../machines/server-choice';
import type { AppActors } from '../../../app/actors/app-actors';
import { idToken } from '../../../app/flows/checkout-services';
import { getClientConfig } from '../../../app/flows/session-services';
import { api } from '../../../services/api-client';
import { generateWireguardKeyPair } from '../../../services/wireguard-keys';
import { preferredPlatform, rememberPlatform } from '../../../services/device-platforms';
import { currentSessionToken, withSession } from '../session-calls';

/**
 * The API's `reauth_required` as the machine sees it: a code and no status, so withSession (which ends the
 * session on a 401) passes it on to the dialog, which asks for the sign-in in place.
 */
function signInAgainNeeded(error: unknown): never {
  if ((error as { code?: unknown } | null)?.code !== 'reauth_required') throw error;
  throw Object.assign(new Error((error as Error).message), { code: 'reauth_required' });
}

export function provideAddDevice(actors: AppActors) {
  // The ID token of the last sign-in again, used for the registration that follows it.
  let freshToken: string | null = null;
  return addDeviceMachine.provide({
    actors: {
      choosePlatform: fromPromise(async ({ input }) => preferredPlatform(input.deviceId)),
      // The status is a hint (issue 48 item 3): when it fails, the list is offered with the states unknown.
      loadServers: fromPromise(async () => {
        const [servers, status] = await Promise.all([api.vpnServers(), api.serversStatus().then((answer) => answer.servers).catch(() => null)]);
        return joinServerStatus(servers, status);
      }),
      generateKeyPair: fromPromise(() => generateWireguardKeyPair()),
      registerKey: fromPromise(async ({ input }) => {
        const sessionToken = currentSessionToken(actors);
        return withSession(actors, async () => {
          // A new key, for a new device or in a device's place, needs a sign-in within 10 minutes (issue 46,
          // item 9): the provider's ID token says when.
          const token = freshToken ?? (await idToken());
          freshToken = null;
          const answer = input.deviceId
            ? api.rotateKey({ sessionToken, deviceId: input.deviceId, publicKey: input.publicKey, idToken: token })
            : api.registerKey({ sessionToken, name: input.name, publicKey: input.publicKey, idToken: token });
          return answer.catch(signInAgainNeeded);
        });
      }),
      reauthenticate: fromPromise<void>(async () => {
        const { reauthenticate } = await import('../../../services/firebase-auth');
        freshToken = await reauthenticate(getClientConfig());
      }),
    },
    actions: {
      rememberPlatform: (_args, { deviceId, platform }) => rememberPlatform(deviceId, platform),
    },
  });
}

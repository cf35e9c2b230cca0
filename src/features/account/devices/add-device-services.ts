/** "Add a device" / "Replace key": the add-device machine with its calls (public key only) and the key maker. */
import { fromPromise } from 'xstate';
import { addDeviceMachine } from '../../../../machines/add-device';
import type { AppActors } from '../../../app/actors/app-actors';
import { api } from '../../../services/api-client';
import { generateWireguardKeyPair } from '../../../services/wireguard-keys';
import { preferredPlatform, rememberPlatform } from '../../../services/device-platforms';
import { currentSessionToken, withSession } from '../session-calls';

export function provideAddDevice(actors: AppActors) {
  return addDeviceMachine.provide({
    actors: {
      choosePlatform: fromPromise(async ({ input }) => preferredPlatform(input.deviceId)),
      loadServers: fromPromise(() => api.vpnServers()),
      generateKeyPair: fromPromise(() => generateWireguardKeyPair()),
      registerKey: fromPromise(async ({ input }) => {
        const sessionToken = currentSessionToken(actors);
        return withSession(actors, () =>
          input.deviceId
            ? api.rotateKey({ sessionToken, deviceId: input.deviceId, publicKey: input.publicKey })
            : api.registerKey({ sessionToken, name: input.name, publicKey: input.publicKey }),
        );
      }),
    },
    actions: {
      rememberPlatform: (_args, { deviceId, platform }) => rememberPlatform(deviceId, platform),
    },
  });
}

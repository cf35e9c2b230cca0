/** The Desktop Devices card's services: the sessions the desktop app obtained through hand-offs. */
import { fromPromise } from 'xstate';
import { devicesMachine } from '../../../../machines/devices';
import { api } from '../../../services/api-client';
import type { AppActors } from '../../../app/actors/app-actors';
import { currentSessionToken, toast, withSession } from '../session-calls';

export function provideDevices(actors: AppActors) {
  return devicesMachine.provide({
    actors: {
      listDevices: fromPromise(async () => {
        return withSession(actors, () => api.listDevices(currentSessionToken(actors)));
      }),
      revokeDevice: fromPromise<number, { deviceId: string }>(async ({ input }) => {
        return withSession(actors, () => api.revokeDevice(currentSessionToken(actors), input.deviceId));
      }),
    },
    actions: { showToast: toast },
  });
}

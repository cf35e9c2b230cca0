/**
 * Desktop devices on the account page (issue 6, design §7): the sessions the desktop app obtained through
 * hand-offs, listed with their first and last use, each of which the customer can sign out.
 */
import { assign, fromPromise, setup } from 'xstate';
import { ACCOUNT_CARDS, sendToCard } from './account-cards';
import type { Device } from '../contract/api';
import { errorMessage } from './error-message';
import type { NoInputMachineTypes, ToastParams } from './types';

export interface DevicesContext {
  devices: Device[];
  error: string | null;
  revoking: string | null;
}

export type DevicesEvent = { type: 'devices.reload' } | { type: 'devices.revoke'; deviceId: string };

export const DEVICE_SIGNED_OUT_TOAST: ToastParams = {
  title: 'Device signed out',
  message: 'That device has to sign in again to use the VPN.',
  color: 'green',
};

export const devicesMachine = setup({
  types: {} as NoInputMachineTypes<DevicesContext, DevicesEvent, 'loading' | 'revoking'>,
  actors: {
    /** POST /api/auth/devices {sessionToken}. */
    listDevices: fromPromise<Device[]>(() => Promise.reject(new Error('listDevices not provided'))),
    /** POST /api/auth/devices/revoke {sessionToken, deviceId}. */
    revokeDevice: fromPromise<void, { deviceId: string }>(() => Promise.reject(new Error('revokeDevice not provided'))),
  },
  actions: {
    showToast: (_args, _params: ToastParams) => {},
    assignDevices: assign((_args, params: { devices: Device[] }) => ({ devices: params.devices, error: null })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
    assignRevoking: assign((_args, params: { deviceId: string | null }) => ({ revoking: params.deviceId })),
    /** The Account activity card shows the sign-out at once. */
    reloadActivity: sendToCard({ type: 'activity.reload' }, ACCOUNT_CARDS.activity),
  },
}).createMachine({
  id: 'devices',
  context: { devices: [], error: null, revoking: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'listDevices',
        src: 'listDevices',
        onDone: { target: 'ready', actions: { type: 'assignDevices', params: ({ event }) => ({ devices: event.output }) } },
        onError: {
          target: 'failed',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not load your devices') }) },
        },
      },
    },
    ready: {
      on: {
        'devices.reload': 'loading',
        'devices.revoke': {
          target: 'revoking',
          actions: { type: 'assignRevoking', params: ({ event }) => ({ deviceId: event.deviceId }) },
        },
      },
    },
    revoking: {
      tags: ['revoking'],
      invoke: {
        id: 'revokeDevice',
        src: 'revokeDevice',
        input: ({ context }) => ({ deviceId: context.revoking ?? '' }),
        onDone: {
          target: 'loading',
          actions: [{ type: 'assignRevoking', params: { deviceId: null } }, { type: 'showToast', params: DEVICE_SIGNED_OUT_TOAST }, 'reloadActivity'],
        },
        onError: {
          target: 'ready',
          actions: [
            { type: 'assignRevoking', params: { deviceId: null } },
            {
              type: 'showToast',
              params: ({ event }) => ({
                title: 'Could not sign out the device',
                message: errorMessage(event.error, 'Please try again'),
                color: 'red' as const,
              }),
            },
          ],
        },
      },
    },
    failed: {
      on: { 'devices.reload': 'loading' },
    },
  },
});

/**
 * Devices on the account page (issue 6, design §7): the sessions the desktop app obtained through hand-offs,
 * listed with their first and last use, each of which the customer can sign out, and WireGuard configurations,
 * whose removal is asked first, since the configuration stops working at once (issue 45 item 6).
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
  /** The WireGuard device whose removal waits for the customer's word. */
  confirming: string | null;
}

export type DevicesEvent =
  | { type: 'devices.reload' }
  | { type: 'devices.revoke'; deviceId: string }
  | { type: 'devices.confirmRemoval' }
  | { type: 'devices.cancelRemoval' };

export const DEVICE_SIGNED_OUT_TOAST: ToastParams = {
  title: 'Device signed out',
  message: 'That device has to sign in again to use the VPN.',
  color: 'green',
};

/** Whether the listed device `deviceId` is a WireGuard configuration (a desktop app is signed out instead). */
const isWireguard = (devices: Device[], deviceId: string | null) => devices.some((device) => device.id === deviceId && device.kind === 'wireguard');

export const devicesMachine = setup({
  types: {} as NoInputMachineTypes<DevicesContext, DevicesEvent, 'loading' | 'revoking' | 'confirming'>,
  actors: {
    /** POST /api/auth/devices {sessionToken}. */
    listDevices: fromPromise<Device[]>(() => Promise.reject(new Error('listDevices not provided'))),
    /** POST /api/auth/devices/revoke {sessionToken, deviceId}: the peer list's version without the device. */
    revokeDevice: fromPromise<number, { deviceId: string }>(() => Promise.reject(new Error('revokeDevice not provided'))),
  },
  actions: {
    showToast: (_args, _params: ToastParams) => {},
    assignDevices: assign((_args, params: { devices: Device[] }) => ({ devices: params.devices, error: null })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
    assignRevoking: assign((_args, params: { deviceId: string | null }) => ({ revoking: params.deviceId })),
    assignConfirming: assign((_args, params: { deviceId: string | null }) => ({ confirming: params.deviceId })),
    /** The Account activity card shows the sign-out at once. */
    reloadActivity: sendToCard({ type: 'activity.reload' }, ACCOUNT_CARDS.activity),
    /** A WireGuard device's removal is confirmed once every VPN server has applied it (issue 47 item 2), and says so. */
    confirmRemoval: sendToCard({ type: 'removal.check' }, ACCOUNT_CARDS.removalConfirmation, true),
  },
  guards: {
    isWireguardDevice: ({ context }, params: { deviceId: string | null }) => isWireguard(context.devices, params.deviceId),
  },
}).createMachine({
  id: 'devices',
  context: { devices: [], error: null, revoking: null, confirming: null },
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
        'devices.revoke': [
          {
            guard: { type: 'isWireguardDevice', params: ({ event }) => ({ deviceId: event.deviceId }) },
            target: 'confirmingRemoval',
            actions: { type: 'assignConfirming', params: ({ event }) => ({ deviceId: event.deviceId }) },
          },
          {
            target: 'revoking',
            actions: { type: 'assignRevoking', params: ({ event }) => ({ deviceId: event.deviceId }) },
          },
        ],
      },
    },
    /** "Remove <device>?": its configuration stops working at once. */
    confirmingRemoval: {
      tags: ['confirming'],
      on: {
        'devices.confirmRemoval': {
          target: 'revoking',
          actions: [
            { type: 'assignRevoking', params: ({ context }) => ({ deviceId: context.confirming }) },
            { type: 'assignConfirming', params: { deviceId: null } },
          ],
        },
        'devices.cancelRemoval': { target: 'ready', actions: { type: 'assignConfirming', params: { deviceId: null } } },
      },
    },
    revoking: {
      tags: ['revoking'],
      invoke: {
        id: 'revokeDevice',
        src: 'revokeDevice',
        input: ({ context }) => ({ deviceId: context.revoking ?? '' }),
        onDone: [
          {
            guard: { type: 'isWireguardDevice', params: ({ context }) => ({ deviceId: context.revoking }) },
            target: 'loading',
            actions: [
              { type: 'assignRevoking', params: { deviceId: null } },
              { type: 'confirmRemoval', params: ({ event }) => ({ version: event.output }) },
              'reloadActivity',
            ],
          },
          {
            target: 'loading',
            actions: [{ type: 'assignRevoking', params: { deviceId: null } }, { type: 'showToast', params: DEVICE_SIGNED_OUT_TOAST }, 'reloadActivity'],
          },
        ],
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

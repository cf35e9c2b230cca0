/**
 * "Add a device" and "Replace key" on the account page's Devices card (issue 29, item 4): a name, the
 * platform and a server; the browser makes the X25519 key pair and sends only the public key; the
 * configuration is shown once (the private key lives in this machine's context until the dialog closes,
 * and nowhere else); errors say what went wrong and offer to try again. A new device wants a sign-in within
 * the last 10 minutes (issue 46, item 9): when the API answers `reauth_required`, the dialog asks for it in
 * place, as the "Your data" card does, then registers the same key once more.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { WireguardDevice } from '../contract/api';
import { ACCOUNT_CARDS, sendToCard } from './account-cards';
import { errorMessage } from './error-message';
import type { NoInputMachineTypes } from './types';
import type { ServerChoice } from './server-choice';
import type { Platform } from './wireguard-config';

export interface KeyPair {
  /** Base64 of the raw 32-byte keys. */
  privateKey: string;
  publicKey: string;
}

export interface AddDeviceContext {
  mode: 'add' | 'replace';
  /** The device whose key is replaced (mode `replace`). */
  deviceId: string | null;
  name: string;
  platform: Platform;
  serverId: string | null;
  /** With each server's state and load when the status could be loaded (issue 48 item 3). */
  servers: ServerChoice[];
  keyPair: KeyPair | null;
  device: WireguardDevice | null;
  error: string | null;
}

export type AddDeviceEvent =
  | { type: 'addDevice.open' }
  | { type: 'addDevice.replace'; deviceId: string; name: string }
  | { type: 'addDevice.submit'; name: string; platform: Platform; serverId: string }
  | { type: 'addDevice.retry' }
  | { type: 'addDevice.reauth' }
  | { type: 'addDevice.close' };

/** The API's answer when the sign-in is older than 10 minutes. */
const REAUTH_REQUIRED = 'reauth_required';

const EMPTY = { deviceId: null, name: '', serverId: null, keyPair: null, device: null, error: null };

export const addDeviceMachine = setup({
  types: {} as NoInputMachineTypes<AddDeviceContext, AddDeviceEvent, 'busy' | 'open'>,
  actors: {
    /**
     * The platform to preselect (issue 45 item 3): the one remembered for the device whose key is replaced,
     * else the visitor's own system; null when neither is known.
     */
    choosePlatform: fromPromise<Platform | null, { deviceId: string | null }>(() => Promise.reject(new Error('choosePlatform not provided'))),
    /** GET /api/vpn/servers joined with GET /api/vpn/servers/status; a status that fails leaves the states unknown. */
    loadServers: fromPromise<ServerChoice[]>(() => Promise.reject(new Error('loadServers not provided'))),
    /** X25519 in the browser (WebCrypto, @noble/curves where it lacks X25519). */
    generateKeyPair: fromPromise<KeyPair>(() => Promise.reject(new Error('generateKeyPair not provided'))),
    /** POST /api/vpn/devices, or /api/vpn/devices/rotate with `deviceId`: the public key only. */
    registerKey: fromPromise<WireguardDevice, { name: string; publicKey: string; deviceId: string | null }>(() =>
      Promise.reject(new Error('registerKey not provided')),
    ),
    /** The provider's sign-in again (a popup), for a fresh `auth_time`. */
    reauthenticate: fromPromise<void>(() => Promise.reject(new Error('reauthenticate not provided'))),
  },
  actions: {
    assignOpen: assign((_args, params: { mode: 'add' | 'replace'; deviceId: string | null; name: string }) => ({ ...EMPTY, ...params })),
    assignPlatform: assign((_args, params: { platform: Platform | null }) => (params.platform ? { platform: params.platform } : {})),
    /** Remembers the platform chosen for a device (this browser only), for its Replace key. */
    rememberPlatform: (_args, _params: { deviceId: string; platform: Platform }) => {},
    assignServers: assign((_args, params: { servers: ServerChoice[] }) => ({ servers: params.servers })),
    assignChoice: assign((_args, params: { name: string; platform: Platform; serverId: string }) => ({ ...params, error: null })),
    assignKeyPair: assign((_args, params: { keyPair: KeyPair }) => ({ keyPair: params.keyPair })),
    assignDevice: assign((_args, params: { device: WireguardDevice }) => ({ device: params.device })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message, keyPair: null })),
    /** What went wrong signing in again; the key pair is kept for the registration that follows it. */
    assignSignInError: assign((_args, params: { message: string | null }) => ({ error: params.message })),
    /** The private key is forgotten once the dialog closes: it is shown once. */
    forgetSecrets: assign(() => ({ ...EMPTY })),
    /** The Devices card lists the new device (or the new key). */
    reloadDevices: sendToCard({ type: 'devices.reload' }, ACCOUNT_CARDS.devices),
    /** The Account activity card shows the device added (the API records it with the key). */
    reloadActivity: sendToCard({ type: 'activity.reload' }, ACCOUNT_CARDS.activity),
  },
  guards: {
    /** The servers are loaded already: trying again goes back to the form. */
    hasServers: ({ context }) => context.servers.length > 0,
    needsSignIn: (_args, params: { error: unknown }) => (params.error as { code?: unknown } | null)?.code === REAUTH_REQUIRED,
  },
}).createMachine({
  id: 'addDevice',
  context: { mode: 'add', platform: 'windows', servers: [], ...EMPTY },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'addDevice.open': { target: 'choosingPlatform', actions: { type: 'assignOpen', params: { mode: 'add', deviceId: null, name: '' } } },
        'addDevice.replace': {
          target: 'choosingPlatform',
          actions: { type: 'assignOpen', params: ({ event }) => ({ mode: 'replace' as const, deviceId: event.deviceId, name: event.name }) },
        },
      },
    },
    choosingPlatform: {
      tags: ['open', 'busy'],
      invoke: {
        id: 'choosePlatform',
        src: 'choosePlatform',
        input: ({ context }) => ({ deviceId: context.deviceId }),
        onDone: { target: 'loadingServers', actions: { type: 'assignPlatform', params: ({ event }) => ({ platform: event.output }) } },
        // Not knowing the platform is no failure: the form offers the default.
        onError: 'loadingServers',
      },
      on: { 'addDevice.close': { target: 'closed', actions: 'forgetSecrets' } },
    },
    loadingServers: {
      tags: ['open', 'busy'],
      invoke: {
        id: 'loadServers',
        src: 'loadServers',
        onDone: { target: 'choosing', actions: { type: 'assignServers', params: ({ event }) => ({ servers: event.output }) } },
        onError: {
          target: 'failed',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not load the VPN servers') }) },
        },
      },
      on: { 'addDevice.close': { target: 'closed', actions: 'forgetSecrets' } },
    },
    choosing: {
      tags: ['open'],
      on: {
        'addDevice.submit': {
          target: 'generatingKey',
          actions: { type: 'assignChoice', params: ({ event }) => ({ name: event.name, platform: event.platform, serverId: event.serverId }) },
        },
        'addDevice.close': { target: 'closed', actions: 'forgetSecrets' },
      },
    },
    generatingKey: {
      tags: ['open', 'busy'],
      invoke: {
        id: 'generateKeyPair',
        src: 'generateKeyPair',
        onDone: { target: 'registering', actions: { type: 'assignKeyPair', params: ({ event }) => ({ keyPair: event.output }) } },
        onError: {
          target: 'failed',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'This browser could not make a key') }) },
        },
      },
    },
    registering: {
      tags: ['open', 'busy'],
      invoke: {
        id: 'registerKey',
        src: 'registerKey',
        input: ({ context }) => ({ name: context.name, publicKey: context.keyPair?.publicKey ?? '', deviceId: context.mode === 'replace' ? context.deviceId : null }),
        onDone: {
          target: 'shown',
          actions: [
            { type: 'assignDevice', params: ({ event }) => ({ device: event.output }) },
            { type: 'rememberPlatform', params: ({ context, event }) => ({ deviceId: event.output.id, platform: context.platform }) },
            'reloadDevices',
            'reloadActivity',
          ],
        },
        onError: [
          {
            guard: { type: 'needsSignIn', params: ({ event }) => ({ error: event.error }) },
            target: 'signInNeeded',
            actions: { type: 'assignSignInError', params: { message: null } },
          },
          {
            target: 'failed',
            actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not add the device') }) },
          },
        ],
      },
    },
    signInNeeded: {
      tags: ['open'],
      on: {
        'addDevice.reauth': 'reauthenticating',
        'addDevice.close': { target: 'closed', actions: 'forgetSecrets' },
      },
    },
    reauthenticating: {
      tags: ['open', 'busy'],
      invoke: {
        id: 'reauthenticate',
        src: 'reauthenticate',
        onDone: 'registering',
        onError: {
          target: 'signInNeeded',
          actions: { type: 'assignSignInError', params: ({ event }) => ({ message: errorMessage(event.error, 'The sign-in did not complete. Please try again.') }) },
        },
      },
    },
    shown: {
      tags: ['open'],
      on: { 'addDevice.close': { target: 'closed', actions: 'forgetSecrets' } },
    },
    failed: {
      tags: ['open'],
      on: {
        'addDevice.retry': [
          { guard: 'hasServers', target: 'choosing' },
          { target: 'loadingServers' },
        ],
        'addDevice.close': { target: 'closed', actions: 'forgetSecrets' },
      },
    },
  },
});

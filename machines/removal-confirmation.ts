/**
 * A WireGuard device's removal, confirmed rather than assumed (issue 47 item 2, design §7f): after the account
 * page removes a device, the API's answer names the peer list's version that lacks it, and this machine asks
 * `POST /api/vpn/devices/removal-status` every second whether every VPN server has applied that version.
 * Confirmed: "Removed from every server." Not within a few seconds: it names the servers that lag, asks
 * again every few seconds, says so once they have, and stops asking after a minute.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { NoInputMachineTypes, ToastParams } from './types';

export interface RemovalCheck {
  confirmed: boolean;
  /** The servers that have not applied it yet, by name ("Lagos, Nigeria"). */
  lagging: string[];
}

interface RemovalConfirmationContext {
  /** The peer list's version that has the device removed. */
  version: number;
  lagging: string[];
}

type RemovalConfirmationEvent = { type: 'removal.check'; version: number };

export const REMOVED_EVERYWHERE_TOAST: ToastParams = { title: 'Device removed', message: 'Removed from every server.', color: 'green' };

/** "Lagos, Nigeria", "New York, United States and Lagos, Nigeria", "3 servers": a name holds a comma already. */
function names(list: string[]): string {
  return list.length > 2 ? `${list.length} servers` : list.join(' and ');
}

/** The notice once the first seconds have passed without every server's word. */
export function stillWaitingToast(lagging: string[]): ToastParams {
  return {
    title: 'Device removed',
    message: lagging.length > 0 ? `Still waiting for ${names(lagging)} to apply the removal.` : 'Not every server has confirmed the removal yet.',
    color: 'yellow',
  };
}

/** The servers' names for their ids, in the given order; an id the list lacks stands for itself. */
export function serverNames(ids: string[], servers: { id: string; city: string; countryName: string }[]): string[] {
  return ids.map((id) => {
    const server = servers.find((each) => each.id === id);
    return server ? `${server.city}, ${server.countryName}` : id;
  });
}

const removalSetup = setup({
  types: {} as NoInputMachineTypes<RemovalConfirmationContext, RemovalConfirmationEvent, 'lagging'>,
  actors: {
    /** POST /api/vpn/devices/removal-status {sessionToken, version}, the lagging ids named by the server list. */
    checkRemoval: fromPromise<RemovalCheck, { version: number }>(() => Promise.reject(new Error('checkRemoval not provided'))),
  },
  actions: {
    showToast: (_args, _params: ToastParams) => {},
    assignVersion: assign((_args, params: { version: number }) => ({ version: params.version, lagging: [] })),
    assignLagging: assign((_args, params: { lagging: string[] }) => ({ lagging: params.lagging })),
  },
  guards: {
    isConfirmed: (_args, params: { check: RemovalCheck }) => params.check.confirmed,
  },
  delays: {
    /** Asking again while the first answer is awaited. */
    POLL_INTERVAL: 1_000,
    /** How long every server has before the lagging ones are named. */
    CONFIRM_WITHIN: 5_000,
    /** Asking again once they are named. */
    SLOW_POLL_INTERVAL: 5_000,
    /** When asking stops. */
    GIVE_UP_AFTER: 60_000,
  },
});

/**
 * One check of the removal, the same in both phases (only its id differs, so each phase's actor is told
 * apart): confirmed → `idle` with the toast; not yet → `waiting`, the lagging servers named; a failed check
 * → `waiting` too, asked again (the removal itself is done).
 */
const checkingState = (id: 'checkRemoval' | 'checkRemovalAgain') =>
  removalSetup.createStateConfig({
    invoke: {
      id,
      src: 'checkRemoval',
      input: ({ context }) => ({ version: context.version }),
      onDone: [
        { guard: { type: 'isConfirmed', params: ({ event }) => ({ check: event.output }) }, target: '#removalConfirmation.idle', actions: { type: 'showToast', params: REMOVED_EVERYWHERE_TOAST } },
        { target: 'waiting', actions: { type: 'assignLagging', params: ({ event }) => ({ lagging: event.output.lagging }) } },
      ],
      onError: 'waiting',
    },
  });

export const removalConfirmationMachine = removalSetup.createMachine({
  id: 'removalConfirmation',
  context: { version: 0, lagging: [] },
  initial: 'idle',
  // A later removal supersedes an earlier one: its version includes it.
  on: {
    'removal.check': { target: '.confirming', reenter: true, actions: { type: 'assignVersion', params: ({ event }) => ({ version: event.version }) } },
  },
  states: {
    idle: {},
    confirming: {
      initial: 'checking',
      after: { CONFIRM_WITHIN: 'lagging' },
      states: {
        checking: checkingState('checkRemoval'),
        waiting: { after: { POLL_INTERVAL: 'checking' } },
      },
    },
    lagging: {
      tags: ['lagging'],
      entry: { type: 'showToast', params: ({ context }) => stillWaitingToast(context.lagging) },
      initial: 'waiting',
      after: { GIVE_UP_AFTER: 'idle' },
      states: {
        waiting: { after: { SLOW_POLL_INTERVAL: 'checking' } },
        checking: checkingState('checkRemovalAgain'),
      },
    },
  },
});

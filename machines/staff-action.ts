/**
 * The staff console's actions (issue 30, item 7; issue 49 item 3): one machine for every action, the action
 * named by the event that starts it. Confirm, then call. Starting it opens the confirmation, which asks for the reason (5 to 500 characters, every action); only a confirmed action
 * with a valid reason calls the API. A refusal stays in the confirmation with its message; success
 * closes it and tells the customer page to reload (`actionDone`).
 */
import { assign, fromPromise, setup } from 'xstate';
import { REASON_LIMITS, type StaffActionName } from '../contract/staff';
import { errorMessage } from './error-message';
import type { NoInputMachineTypes } from './types';

export interface StaffActionContext {
  /** The action started last (null before any). */
  action: StaffActionName | null;
  userId: string;
  /** The device, for revoke_device. */
  deviceId: string | null;
  reason: string;
  error: string | null;
}

export type StaffActionEvent =
  | { type: 'action.start'; action: StaffActionName; userId: string; deviceId?: string }
  | { type: 'reason.change'; reason: string }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' };

/** Whether a reason is one the API takes. */
function reasonIsValid(reason: string): boolean {
  const length = reason.trim().length;
  return length >= REASON_LIMITS.min && length <= REASON_LIMITS.max;
}

export const staffActionMachine = setup({
  types: {} as NoInputMachineTypes<StaffActionContext, StaffActionEvent, 'calling'>,
  actors: {
    /** POST /api/staff/actions {idToken, userId, action, reason, deviceId?}. */
    performAction: fromPromise<void, { action: StaffActionName | null; userId: string; reason: string; deviceId: string | null }>(() =>
      Promise.reject(new Error('performAction not provided')),
    ),
  },
  actions: {
    open: assign((_args, params: { action: StaffActionName; userId: string; deviceId: string | null }) => ({ ...params, reason: '', error: null })),
    assignReason: assign((_args, params: { reason: string }) => ({ reason: params.reason })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
    /** The customer page reloads, and a toast says it is done (the SPA implements it). */
    actionDone: () => {},
  },
  guards: {
    reasonIsValid: ({ context }) => reasonIsValid(context.reason),
  },
}).createMachine({
  id: 'staffAction',
  context: { action: null, userId: '', deviceId: null, reason: '', error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'action.start': { target: 'confirming', actions: { type: 'open', params: ({ event }) => ({ action: event.action, userId: event.userId, deviceId: event.deviceId ?? null }) } } },
    },
    confirming: {
      on: {
        'reason.change': { actions: { type: 'assignReason', params: ({ event }) => ({ reason: event.reason }) } },
        'action.confirm': { guard: 'reasonIsValid', target: 'calling' },
        'action.cancel': 'idle',
      },
    },
    calling: {
      tags: ['calling'],
      invoke: {
        id: 'performAction',
        src: 'performAction',
        input: ({ context }) => ({ action: context.action, userId: context.userId, reason: context.reason.trim(), deviceId: context.deviceId }),
        onDone: { target: 'idle', actions: 'actionDone' },
        onError: {
          target: 'confirming',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'The action failed') }) },
        },
      },
    },
  },
});

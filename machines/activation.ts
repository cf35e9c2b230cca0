/**
 * Payment activation: after the hosted checkout returns to /success, the subscription becomes `active`
 * only when the provider's webhook has arrived (design §7). This machine checks the subscription until it
 * is active, a bounded number of times, so a customer never reads "not subscribed" right after paying and
 * is told plainly when activation takes longer. Issue 6 (the "activating" state of /success).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Subscription } from '../contract/api';
import { isActive } from './subscription-display';
import type { NoInputMachineTypes } from './types';

/** Time between two checks of the subscription. */
export const ACTIVATION_POLL_MS = 2000;
/** Checks before giving up: 15 checks, 2 s apart, about 30 s in all. */
export const ACTIVATION_MAX_CHECKS = 15;

export interface ActivationContext {
  checks: number;
}

export type ActivationEvent = { type: 'activation.retry' };

export const activationMachine = setup({
  types: {} as NoInputMachineTypes<ActivationContext, ActivationEvent, 'activating'>,
  actors: {
    /** The signed-in customer's current subscription (the SPA refreshes the session and reads it). */
    checkSubscription: fromPromise<Subscription | null>(() => Promise.reject(new Error('checkSubscription not provided'))),
  },
  actions: {
    countCheck: assign(({ context }) => ({ checks: context.checks + 1 })),
    resetChecks: assign(() => ({ checks: 0 })),
  },
  guards: {
    isActive: (_args, params: { subscription: Subscription | null }) => isActive(params.subscription),
    hasChecksLeft: ({ context }) => context.checks < ACTIVATION_MAX_CHECKS,
  },
  delays: {
    activationPoll: ACTIVATION_POLL_MS,
  },
}).createMachine({
  id: 'activation',
  context: { checks: 0 },
  initial: 'checking',
  states: {
    checking: {
      tags: ['activating'],
      entry: 'countCheck',
      invoke: {
        id: 'checkSubscription',
        src: 'checkSubscription',
        onDone: [
          { guard: { type: 'isActive', params: ({ event }) => ({ subscription: event.output }) }, target: 'active' },
          { guard: 'hasChecksLeft', target: 'waiting' },
          { target: 'timedOut' },
        ],
        // A failed check (the API briefly unreachable) counts like a not-yet-active answer.
        onError: [{ guard: 'hasChecksLeft', target: 'waiting' }, { target: 'timedOut' }],
      },
    },
    waiting: {
      tags: ['activating'],
      after: { activationPoll: 'checking' },
    },
    active: { type: 'final' },
    timedOut: {
      on: { 'activation.retry': { target: 'checking', actions: 'resetChecks' } },
    },
  },
});

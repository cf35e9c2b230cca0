/**
 * Deep-link decision machine: where to go after a sign-in. Invoked by the sign-in machine (invoke id
 * 'deepLink'); can also run on its own. Carries out spec §4 "Sign-in flow" step 5 and §9 (2000 ms
 * fallback); design §4 (deep-link decision) and §7 (the `auth` link carries a one-time hand-off token).
 */
import { fromPromise, setup } from 'xstate';
import { mayOpenDesktopLink } from './deep-link-decision';
import type { DeepLinkInput } from './deep-link-decision';
import type { NavigateParams } from './types';

export interface DeepLinkMachineInput extends DeepLinkInput {
  /** The API session token; the `openDesktopApp` actor mints the one-time hand-off token with it. */
  sessionToken: string;
}

export type DeepLinkContext = DeepLinkMachineInput;

export interface DeepLinkOutput {
  outcome: 'desktopApp' | 'account' | 'subscribe';
}

/** Spec §9: move to /account 2000 ms after opening the desktop app. */
const DEEP_LINK_FALLBACK_MS = 2000;

export const deepLinkMachine = setup({
  types: {
    context: {} as DeepLinkContext,
    input: {} as DeepLinkMachineInput,
    output: {} as DeepLinkOutput,
    tags: {} as 'openingDesktopApp',
  },
  actors: {
    /**
     * POST /api/auth/handoff {sessionToken} -> handoffToken; store `veilvpn://auth?token=<handoffToken>`
     * in local storage `token`; open that link. Resolves once the link has been opened.
     */
    openDesktopApp: fromPromise<void, { sessionToken: string }>(() =>
      Promise.reject(new Error('openDesktopApp not provided')),
    ),
  },
  actions: {
    navigate: (_args, _params: NavigateParams) => {},
  },
  guards: {
    hasActiveSubscription: ({ context }) => context.subscriptionActive,
    isDesktop: ({ context }) => context.isDesktop,
    /** Popup sign-in always; redirect sign-in only on /success, /subscribe or ?openapp=true. */
    mayOpenDesktopLink: ({ context }) => mayOpenDesktopLink(context),
    isOnAccountPage: ({ context }) => context.pathname === '/account',
  },
  delays: {
    deepLinkFallback: DEEP_LINK_FALLBACK_MS,
  },
}).createMachine({
  id: 'deepLink',
  context: ({ input }) => input,
  initial: 'deciding',
  states: {
    deciding: {
      always: [
        { guard: 'hasActiveSubscription', target: 'checkingDevice' },
        { target: 'toSubscribe' },
      ],
    },
    checkingDevice: {
      always: [
        { guard: 'isDesktop', target: 'checkingLinkRule' },
        { target: 'toAccount' },
      ],
    },
    checkingLinkRule: {
      always: [
        { guard: 'mayOpenDesktopLink', target: 'openingDesktopApp' },
        { target: 'toAccount' },
      ],
    },
    openingDesktopApp: {
      tags: ['openingDesktopApp'],
      invoke: {
        id: 'openDesktopApp',
        src: 'openDesktopApp',
        input: ({ context }) => ({ sessionToken: context.sessionToken }),
        onDone: { target: 'waitingForDesktopApp' },
        // No hand-off token or the link could not be opened: the account page still works.
        onError: { target: 'toAccount' },
      },
    },
    waitingForDesktopApp: {
      after: {
        deepLinkFallback: [
          { guard: 'isOnAccountPage', target: 'desktopAppOpened' },
          { target: 'desktopAppOpenedThenAccount' },
        ],
      },
    },
    desktopAppOpened: { type: 'final', output: { outcome: 'desktopApp' } },
    desktopAppOpenedThenAccount: {
      type: 'final',
      output: { outcome: 'desktopApp' },
      entry: { type: 'navigate', params: { to: '/account' } },
    },
    toAccount: {
      type: 'final',
      output: { outcome: 'account' },
      entry: { type: 'navigate', params: { to: '/account' } },
    },
    toSubscribe: {
      type: 'final',
      output: { outcome: 'subscribe' },
      entry: { type: 'navigate', params: { to: '/subscribe' } },
    },
  },
  output: ({ event }) => event.output as DeepLinkOutput,
});

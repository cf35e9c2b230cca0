/**
 * Sign-in machine: one long-lived actor per page that handles every sign-in attempt.
 * Carries out spec §4 "Sign-in flow" steps 1-4, 6, 7; §5 (single flight, Apple user identifier);
 * §8 (error catalogue, toasts); §9 (debounce 1000/2000 ms, 10000 ms toast); design §4 (sign-in) and §8
 * (no identity token -> "Authentication Error"). Step 5 (the outcome) is the invoked deep-link machine.
 * The named implementations are in `sign-in.setup.ts`; this file holds the states.
 */
import type { DeepLinkMachineInput } from './deep-link';
import { errorMessage } from './error-message';
import { NO_ACCESS_TOKEN_MESSAGE } from './exchange-request';
import { invokeCall } from './invoke-call';
import { describeSignInError, RECENTLY_DELETED_TITLE } from './sign-in-errors';
import { isActive } from './subscription-display';
import { BACKEND_SIGN_IN_FALLBACK, RECENTLY_DELETED_TOAST_MS, signInSetup } from './sign-in.setup';

export type { RedirectCheckOutput, SignInInput } from './sign-in.setup';

type ErrorEventArgs = { event: { error: unknown } };

/**
 * Spec §8: every provider failure (redirect result, popup, redirect start) ends the attempt the same way:
 * any redirect flag is cleared (no redirect happened), the error is remembered with its catalogue retry
 * flag, and "Sign-In Failed" is shown with the catalogue message.
 */
const providerFailed = {
  target: 'idle',
  actions: [
    'clearRedirectPending',
    {
      type: 'assignError',
      params: ({ event }: ErrorEventArgs) => ({ title: 'Sign-In Failed', ...describeSignInError(event.error) }),
    },
    {
      type: 'showToast',
      params: ({ event }: ErrorEventArgs) => ({
        title: 'Sign-In Failed',
        message: describeSignInError(event.error).message,
        color: 'red' as const,
      }),
    },
  ],
} as const;

/** A popup the browser refused: the catalogue's message ("…We'll use a redirect instead.") as the redirect starts. */
const redirectFallbackToast = ({ event }: ErrorEventArgs) => ({
  title: 'Sign-In Failed',
  message: describeSignInError(event.error).message,
  color: 'yellow' as const,
});

export const signInMachine = signInSetup.createMachine({
  id: 'signIn',
  type: 'parallel',
  context: ({ input }) => ({
    isDesktop: input.isDesktop,
    location: input.location,
    lastClickPathname: null,
    provider: null,
    mode: null,
    credential: null,
    request: null,
    session: null,
    lastError: null,
  }),
  states: {
    attempt: {
      initial: 'checkingRedirect',
      states: {
        checkingRedirect: {
          tags: ['signingIn'],
          invoke: {
            id: 'consumeRedirectResult',
            src: 'consumeRedirectResult',
            onDone: [
              {
                guard: { type: 'hasRedirectResult', params: ({ event }) => ({ output: event.output }) },
                target: 'receivedCredential',
                actions: [
                  'clearRedirectPending',
                  {
                    type: 'assignCredential',
                    params: ({ event }) => ({ credential: event.output.credential!, mode: 'redirect' as const }),
                  },
                ],
              },
              {
                guard: { type: 'needsIdToken', params: ({ event }) => ({ output: event.output }) },
                target: 'obtainingIdToken',
                actions: 'clearRedirectPending',
              },
              { target: 'idle', actions: 'clearRedirectPending' },
            ],
            onError: providerFailed,
          },
        },
        obtainingIdToken: {
          tags: ['signingIn'],
          invoke: {
            id: 'getIdToken',
            src: 'getIdToken',
            onDone: {
              target: 'receivedCredential',
              actions: {
                type: 'assignCredential',
                params: ({ event }) => ({ credential: event.output, mode: 'silent' as const }),
              },
            },
            // Nothing was asked of the user, so nothing is shown.
            onError: { target: 'idle' },
          },
        },
        idle: {
          on: {
            'signIn.start': {
              guard: 'isCooledDown',
              target: 'popup',
              actions: {
                type: 'assignAttempt',
                params: ({ event }) => ({ provider: event.provider, location: { pathname: event.pathname, search: event.search } }),
              },
            },
          },
        },
        popup: {
          tags: ['signingIn'],
          invoke: {
            id: 'signInWithPopup',
            src: 'signInWithPopup',
            input: ({ context }) => ({ provider: context.provider ?? 'google' }),
            onDone: {
              target: 'receivedCredential',
              actions: { type: 'assignCredential', params: ({ event }) => ({ credential: event.output, mode: 'popup' as const }) },
            },
            onError: [
              {
                guard: { type: 'isPopupFallbackError', params: ({ event }) => ({ error: event.error }) },
                target: 'redirecting',
                actions: ['storeRedirectPending', { type: 'showToast', params: redirectFallbackToast }],
              },
              providerFailed,
            ],
          },
        },
        redirecting: {
          tags: ['signingIn'],
          invoke: {
            id: 'startRedirect',
            src: 'startRedirect',
            input: ({ context }) => ({ provider: context.provider ?? 'google' }),
            // The browser is leaving the page; if it does not, the buttons work again.
            onDone: { target: 'idle' },
            onError: providerFailed,
          },
        },
        receivedCredential: {
          always: [
            { guard: 'hasProviderToken', target: 'exchanging', actions: 'assignRequest' },
            { guard: 'isSilentMode', target: 'idle' },
            {
              target: 'idle',
              actions: [
                {
                  type: 'assignError',
                  params: { title: 'Authentication Error', message: NO_ACCESS_TOKEN_MESSAGE, retry: true },
                },
                {
                  type: 'showToast',
                  params: { title: 'Authentication Error', message: NO_ACCESS_TOKEN_MESSAGE, color: 'red' },
                },
              ],
            },
          ],
        },
        exchanging: {
          tags: ['signingIn'],
          invoke: {
            id: 'exchangeToken',
            src: 'exchangeToken',
            input: ({ context }) => ({ request: context.request! }),
            onDone: [
              {
                guard: 'isSilentMode',
                target: 'idle',
                actions: [
                  { type: 'handOffSession', params: ({ event }) => ({ session: event.output }) },
                ],
              },
              {
                target: 'decidingDestination',
                actions: [
                  { type: 'handOffSession', params: ({ event }) => ({ session: event.output }) },
                  { type: 'assignSession', params: ({ event }) => ({ session: event.output }) },
                ],
              },
            ],
            onError: [
              {
                guard: { type: 'isRecentlyDeleted', params: ({ event }) => ({ error: event.error }) },
                target: 'recentlyDeleted',
                actions: {
                  type: 'assignError',
                  params: ({ event }) => ({
                    title: RECENTLY_DELETED_TITLE,
                    message: errorMessage(event.error, BACKEND_SIGN_IN_FALLBACK),
                    retry: false,
                  }),
                },
              },
              { guard: 'isSilentMode', target: 'idle' },
              {
                target: 'idle',
                actions: [
                  {
                    type: 'assignError',
                    params: ({ event }) => ({
                      title: 'Sign-In Error',
                      message: errorMessage(event.error, BACKEND_SIGN_IN_FALLBACK),
                      retry: true,
                    }),
                  },
                  {
                    type: 'showToast',
                    params: ({ event }) => ({
                      title: 'Sign-In Error',
                      message: errorMessage(event.error, BACKEND_SIGN_IN_FALLBACK),
                      color: 'red' as const,
                    }),
                  },
                ],
              },
            ],
          },
        },
        recentlyDeleted: {
          tags: ['signingIn'],
          entry: 'endSession',
          // Whether or not the provider sign-out worked, the user is told.
          invoke: invokeCall('signOutProvider', { onDone: 'reportingRecentlyDeleted', onError: 'reportingRecentlyDeleted' }),
        },
        reportingRecentlyDeleted: {
          always: [
            {
              guard: 'isPopupMode',
              target: 'idle',
              actions: {
                type: 'showToast',
                params: ({ context }) => ({
                  title: RECENTLY_DELETED_TITLE,
                  message: context.lastError?.message ?? BACKEND_SIGN_IN_FALLBACK,
                  // An expected state with a date to come back on, not a failure (issue 22 item 9).
                  color: 'blue' as const,
                  autoClose: RECENTLY_DELETED_TOAST_MS,
                }),
              },
            },
            {
              target: 'idle',
              actions: [
                { type: 'alert', params: ({ context }) => ({ message: context.lastError?.message ?? BACKEND_SIGN_IN_FALLBACK }) },
                { type: 'navigate', params: { to: '/signin' } },
              ],
            },
          ],
        },
        decidingDestination: {
          tags: ['signingIn'],
          invoke: {
            id: 'deepLink',
            src: 'deepLink',
            input: ({ context }): DeepLinkMachineInput => ({
              subscriptionActive: isActive(context.session?.subscription),
              isDesktop: context.isDesktop,
              mode: context.mode === 'popup' ? 'popup' : 'redirect',
              pathname: context.location.pathname,
              search: context.location.search,
              sessionToken: context.session?.sessionToken ?? '',
            }),
            onDone: { target: 'idle' },
            onError: { target: 'idle', actions: { type: 'navigate', params: { to: '/account' } } },
          },
        },
      },
    },
    debounce: {
      initial: 'ready',
      states: {
        ready: {
          on: {
            'signIn.start': {
              guard: 'isAttemptIdle',
              target: 'coolingDown',
              actions: { type: 'assignClick', params: ({ event }) => ({ pathname: event.pathname }) },
            },
          },
        },
        coolingDown: {
          tags: ['coolingDown'],
          after: { signInDebounce: { target: 'ready' } },
        },
      },
    },
  },
});

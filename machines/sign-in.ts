/**
 * Sign-in machine: one long-lived actor per page that handles every sign-in attempt.
 * Carries out spec §4 "Sign-in flow" steps 1-4, 6, 7; §5 (single flight, Apple user identifier);
 * §8 (error catalogue, toasts); §9 (debounce 1000/2000 ms, 10000 ms toast); design §4 (sign-in) and §8
 * (no identity token -> "Authentication Error"). Step 5 (the outcome) is the invoked deep-link machine.
 */
import { assign, fromPromise, setup, stateIn } from 'xstate';
import { deepLinkMachine } from './deep-link';
import type { DeepLinkMachineInput } from './deep-link';
import { NO_ACCESS_TOKEN_MESSAGE, toExchangeRequest } from './exchange-request';
import { errorMessage } from './error-message';
import { describeSignInError, isPopupFallbackError, isRecentlyDeletedError } from './sign-in-errors';
import { isActive } from './subscription-display';
import type {
  BrowserLocation,
  ExchangeRequest,
  NavigateParams,
  Provider,
  ProviderCredential,
  Session,
  ToastParams,
} from './types';

/** Spec §9: sign-in buttons are debounced 1000 ms by default... */
export const SIGN_IN_DEBOUNCE_MS = 1000;
/** ...and 2000 ms when the click happens on the sign-in page. */
export const SIGN_IN_PAGE_DEBOUNCE_MS = 2000;
/** Spec §9: the "Account Recently Deleted" toast stays 10000 ms. */
export const RECENTLY_DELETED_TOAST_MS = 10_000;
/** Toast fallback when the API refused a sign-in without a message. */
export const BACKEND_SIGN_IN_FALLBACK = 'Failed to authenticate with backend';

export type SignInMode = 'popup' | 'redirect' | 'silent';

export interface SignInInput {
  /** Mac, Windows or Linux user agent and not mobile (spec §1). */
  isDesktop: boolean;
  /** Where the page loaded (a redirect sign-in comes back to this page). */
  location: BrowserLocation;
}

export interface SignInErrorState {
  title: string;
  message: string;
  retry: boolean;
}

export interface SignInContext {
  isDesktop: boolean;
  /** Location of the current attempt: the click's location, or the page's for a redirect result. */
  location: BrowserLocation;
  /** Pathname of the last accepted click; chooses the debounce. */
  lastClickPathname: string | null;
  provider: Provider | null;
  /** popup: a click; redirect: a redirect result on page load; silent: the provider already had a user. */
  mode: SignInMode | null;
  credential: ProviderCredential | null;
  request: ExchangeRequest | null;
  session: Session | null;
  lastError: SignInErrorState | null;
}

export type SignInClickEvent =
  | { type: 'signIn.google'; pathname: string; search: string }
  | { type: 'signIn.apple'; pathname: string; search: string };

export type SignInEvent = SignInClickEvent;

export interface RedirectCheckOutput {
  /** The redirect result (Firebase `getRedirectResult`), or null when there is none. */
  credential: ProviderCredential | null;
  /** Firebase `auth.currentUser !== null` after the check. */
  providerSignedIn: boolean;
  /** Local storage holds a `sessionToken` (the session machine restores that one). */
  hasStoredSession: boolean;
}

/** Spec §8: a provider error is remembered with its catalogue retry flag and shown as "Sign-In Failed". */
const providerErrorState = ({ event }: { event: { error: unknown } }): SignInErrorState => ({
  title: 'Sign-In Failed',
  ...describeSignInError(event.error),
});
const providerErrorToast = ({ event }: { event: { error: unknown } }): ToastParams => ({
  title: 'Sign-In Failed',
  message: describeSignInError(event.error).message,
  color: 'red',
});

/** A popup the browser refused: the catalogue's message ("…We'll use a redirect instead.") as the redirect starts. */
const redirectFallbackToast = ({ event }: { event: { error: unknown } }): ToastParams => ({
  title: 'Sign-In Failed',
  message: describeSignInError(event.error).message,
  color: 'yellow',
});

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

const attemptFromClick = (event: SignInClickEvent) => ({
  provider: (event.type === 'signIn.apple' ? 'apple' : 'google') as Provider,
  location: { pathname: event.pathname, search: event.search },
});

export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    input: {} as SignInInput,
    events: {} as SignInEvent,
    tags: {} as 'signingIn' | 'coolingDown',
  },
  actors: {
    /** Firebase `getRedirectResult` + `auth.currentUser` + whether local `sessionToken` exists. */
    consumeRedirectResult: fromPromise<RedirectCheckOutput>(notProvided('consumeRedirectResult')),
    /** `user.getIdToken()` for the user the provider already has (spec §4 step 3). */
    getIdToken: fromPromise<ProviderCredential>(notProvided('getIdToken')),
    /** Firebase `signInWithPopup` for the provider; rejects with the Firebase error (`code`). */
    signInWithPopup: fromPromise<ProviderCredential, { provider: Provider }>(notProvided('signInWithPopup')),
    /** Firebase `signInWithRedirect`; the page navigates away. */
    startRedirect: fromPromise<void, { provider: Provider }>(notProvided('startRedirect')),
    /**
     * POST /api/auth/{google|apple}/signin. Resolves the session; rejects with an Error whose message is
     * the API's `error` (else "Backend authentication failed").
     */
    exchangeToken: fromPromise<Session, { request: ExchangeRequest }>(notProvided('exchangeToken')),
    /** Firebase `signOut` only. */
    signOutProvider: fromPromise<void>(notProvided('signOutProvider')),
    /** The outcome (spec §4 step 5). Supply `deepLinkMachine.provide({...})` with its own implementations. */
    deepLink: deepLinkMachine,
  },
  actions: {
    /** Session storage: redirect-pending flag and timestamp (Date.now() taken by the SPA). */
    storeRedirectPending: () => {},
    /** Session storage: remove the redirect-pending flag and timestamp. */
    clearRedirectPending: () => {},
    /** Local storage `sessionToken`. */
    storeSessionToken: (_args, _params: { sessionToken: string }) => {},
    /** Hand the session to the session machine: `session.send({ type: 'session.signedIn', session })`. */
    handOffSession: (_args, _params: { session: Session }) => {},
    /** Remove stored tokens and forget the user: clear local storage, `session.send({ type: 'session.ended' })`. */
    clearStoredSession: () => {},
    showToast: (_args, _params: ToastParams) => {},
    /** `window.alert(message)`. */
    alert: (_args, _params: { message: string }) => {},
    navigate: (_args, _params: NavigateParams) => {},
    assignClick: assign((_args, params: { pathname: string }) => ({ lastClickPathname: params.pathname })),
    assignAttempt: assign((_args, params: { provider: Provider; location: BrowserLocation }) => ({
      provider: params.provider,
      location: params.location,
      mode: 'popup' as const,
      credential: null,
      request: null,
      session: null,
      lastError: null,
    })),
    assignCredential: assign((_args, params: { credential: ProviderCredential; mode: SignInMode }) => ({
      credential: params.credential,
      provider: params.credential.provider,
      mode: params.mode,
      request: null,
      session: null,
      lastError: null,
    })),
    assignRequest: assign(({ context }) => {
      const result = context.credential ? toExchangeRequest(context.credential) : null;
      return { request: result?.ok ? result.request : null };
    }),
    assignSession: assign((_args, params: { session: Session }) => ({ session: params.session })),
    assignError: assign((_args, params: SignInErrorState) => ({ lastError: params })),
  },
  guards: {
    /** The debounce region is ready (no click in the last 1000/2000 ms). */
    isCooledDown: stateIn('#signIn.debounce.ready'),
    /** No sign-in is running (single flight). */
    isAttemptIdle: stateIn('#signIn.attempt.idle'),
    hasRedirectResult: (_args, params: { output: RedirectCheckOutput }) => params.output.credential !== null,
    /** Spec §4 step 3: provider has a user, no redirect result; and no stored session to restore instead. */
    needsIdToken: (_args, params: { output: RedirectCheckOutput }) =>
      params.output.credential === null && params.output.providerSignedIn && !params.output.hasStoredSession,
    hasProviderToken: ({ context }) => context.credential !== null && toExchangeRequest(context.credential).ok,
    isPopupFallbackError: (_args, params: { error: unknown }) => isPopupFallbackError(params.error),
    isRecentlyDeleted: (_args, params: { error: unknown }) => isRecentlyDeletedError(params.error),
    isSilentMode: ({ context }) => context.mode === 'silent',
    isPopupMode: ({ context }) => context.mode === 'popup',
  },
  delays: {
    /** 2000 ms after a click on /signin, 1000 ms after a click elsewhere. */
    signInDebounce: ({ context }) =>
      context.lastClickPathname === '/signin' ? SIGN_IN_PAGE_DEBOUNCE_MS : SIGN_IN_DEBOUNCE_MS,
  },
}).createMachine({
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
            onError: {
              target: 'idle',
              actions: [
                'clearRedirectPending',
                { type: 'assignError', params: providerErrorState },
                { type: 'showToast', params: providerErrorToast },
              ],
            },
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
            'signIn.google': {
              guard: 'isCooledDown',
              target: 'popup',
              actions: { type: 'assignAttempt', params: ({ event }) => attemptFromClick(event) },
            },
            'signIn.apple': {
              guard: 'isCooledDown',
              target: 'popup',
              actions: { type: 'assignAttempt', params: ({ event }) => attemptFromClick(event) },
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
              {
                target: 'idle',
                actions: [
                  { type: 'assignError', params: providerErrorState },
                  { type: 'showToast', params: providerErrorToast },
                ],
              },
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
            onError: {
              target: 'idle',
              actions: [
                'clearRedirectPending',
                { type: 'assignError', params: providerErrorState },
                { type: 'showToast', params: providerErrorToast },
              ],
            },
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
                  { type: 'storeSessionToken', params: ({ event }) => ({ sessionToken: event.output.sessionToken }) },
                  { type: 'handOffSession', params: ({ event }) => ({ session: event.output }) },
                ],
              },
              {
                target: 'decidingDestination',
                actions: [
                  { type: 'storeSessionToken', params: ({ event }) => ({ sessionToken: event.output.sessionToken }) },
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
                    title: 'Account Recently Deleted',
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
          entry: 'clearStoredSession',
          invoke: {
            id: 'signOutProvider',
            src: 'signOutProvider',
            // Whether or not the provider sign-out worked, the user is told.
            onDone: { target: 'reportingRecentlyDeleted' },
            onError: { target: 'reportingRecentlyDeleted' },
          },
        },
        reportingRecentlyDeleted: {
          always: [
            {
              guard: 'isPopupMode',
              target: 'idle',
              actions: {
                type: 'showToast',
                params: ({ context }) => ({
                  title: 'Account Recently Deleted',
                  message: context.lastError?.message ?? BACKEND_SIGN_IN_FALLBACK,
                  color: 'red' as const,
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
            'signIn.google': {
              guard: 'isAttemptIdle',
              target: 'coolingDown',
              actions: { type: 'assignClick', params: ({ event }) => ({ pathname: event.pathname }) },
            },
            'signIn.apple': {
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

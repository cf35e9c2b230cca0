/**
 * Session (app) machine: start-up, session restore, the signed-in user + subscription, refresh, sign-out.
 * Carries out spec §2 "Start-up", §4 "Session restore", §4 "Sign out", §8 sign-out toasts and start-up
 * failure; design §4 (app / session) and §5 (the session ends while a page is open).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Subscription } from '../contract/api';
import { errorMessage } from './error-message';
import type { Session, SessionUser, ToastParams } from './types';

export interface SessionContext {
  user: SessionUser | null;
  subscription: Subscription | null;
  sessionToken: string | null;
  /** Start-up failure message for the "Authentication Error" page. */
  error: string | null;
}

export type SessionEvent =
  /** A sign-in completed (sent by the SPA's `handOffSession` of the sign-in machine). */
  | { type: 'session.signedIn'; session: Session }
  /** The identity provider's auth state changed (Firebase `onAuthStateChanged`). */
  | { type: 'auth.changed'; signedIn: boolean; storedSessionToken: string | null }
  | { type: 'subscription.refresh' }
  /** A fresher subscription is known (e.g. the cancel call returned one). */
  | { type: 'subscription.updated'; subscription: Subscription | null }
  | { type: 'session.signOut' }
  /**
   * The session ended outside this tab's sign-out (another tab signed out, or the account was deleted):
   * forget it locally, without calling the provider or the API again and without a toast.
   */
  | { type: 'session.ended' };

export interface InitialiseOutput {
  /** Local storage `sessionToken`, if any. */
  storedSessionToken: string | null;
}

export const SIGN_OUT_SUCCESS_TOAST: ToastParams = {
  title: 'Signed out successfully',
  message: 'You have been signed out of your account',
  color: 'green',
};
export const SIGN_OUT_FAILURE_TOAST: ToastParams = { title: 'Sign out failed', message: 'Please try again', color: 'red' };

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

const empty: SessionContext = { user: null, subscription: null, sessionToken: null, error: null };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as Record<string, never> | undefined,
    tags: {} as 'loading' | 'failed' | 'signedIn' | 'refreshing' | 'signingOut',
  },
  actors: {
    /** Initialise the identity provider and read the stored session token. */
    initialise: fromPromise<InitialiseOutput>(notProvided('initialise')),
    /** POST /api/auth/verify; rejects when the token is not valid. */
    verifySession: fromPromise<Session, { sessionToken: string }>(notProvided('verifySession')),
    /** Sign out of the identity provider only (no API call). */
    signOutProvider: fromPromise<void>(notProvided('signOutProvider')),
    /** Current subscription of the signed-in user. */
    fetchSubscription: fromPromise<Subscription | null, { sessionToken: string }>(notProvided('fetchSubscription')),
    /**
     * Full sign-out: POST /api/auth/signout (best effort), provider sign-out, clear local storage
     * `sessionToken`, `token`, `google_access_token`. Rejects only when the provider sign-out fails.
     */
    signOut: fromPromise<void, { sessionToken: string | null }>(notProvided('signOut')),
  },
  actions: {
    /** Remove local storage `sessionToken` and `token`. */
    clearStoredSession: () => {},
    showToast: (_args, _params: ToastParams) => {},
    assignSession: assign((_args, session: Session) => ({
      user: session.user,
      subscription: session.subscription,
      sessionToken: session.sessionToken,
      error: null,
    })),
    assignSubscription: assign((_args, params: { subscription: Subscription | null }) => ({
      subscription: params.subscription,
    })),
    assignStoredToken: assign((_args, params: { sessionToken: string | null }) => ({ sessionToken: params.sessionToken })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
    clearContext: assign(() => empty),
  },
  guards: {
    hasStoredSessionToken: (_args, params: { sessionToken: string | null }) =>
      params.sessionToken !== null && params.sessionToken !== '',
    isProviderSignedOut: (_args, params: { signedIn: boolean }) => !params.signedIn,
    canRestoreSession: (_args, params: { signedIn: boolean; sessionToken: string | null }) =>
      params.signedIn && params.sessionToken !== null && params.sessionToken !== '',
  },
}).createMachine({
  id: 'session',
  context: empty,
  initial: 'initialising',
  states: {
    initialising: {
      tags: ['loading'],
      invoke: {
        id: 'initialise',
        src: 'initialise',
        onDone: [
          {
            guard: { type: 'hasStoredSessionToken', params: ({ event }) => ({ sessionToken: event.output.storedSessionToken }) },
            target: 'restoring',
            actions: {
              type: 'assignStoredToken',
              params: ({ event }) => ({ sessionToken: event.output.storedSessionToken }),
            },
          },
          { target: 'signedOut' },
        ],
        onError: {
          target: 'failed',
          actions: {
            type: 'assignError',
            params: ({ event }) => ({ message: errorMessage(event.error, 'Authentication failed to initialise') }),
          },
        },
      },
    },
    restoring: {
      tags: ['loading'],
      invoke: {
        id: 'verifySession',
        src: 'verifySession',
        input: ({ context }) => ({ sessionToken: context.sessionToken ?? '' }),
        onDone: { target: 'signedIn', actions: { type: 'assignSession', params: ({ event }) => event.output } },
        onError: { target: 'clearingSession' },
      },
      on: {
        'session.signedIn': { target: 'signedIn', actions: { type: 'assignSession', params: ({ event }) => event.session } },
      },
    },
    clearingSession: {
      tags: ['loading'],
      entry: ['clearContext', 'clearStoredSession'],
      invoke: {
        id: 'signOutProvider',
        src: 'signOutProvider',
        onDone: { target: 'signedOut' },
        onError: { target: 'signedOut' },
      },
    },
    signedOut: {
      on: {
        'session.signedIn': { target: 'signedIn', actions: { type: 'assignSession', params: ({ event }) => event.session } },
        'auth.changed': {
          guard: {
            type: 'canRestoreSession',
            params: ({ event }) => ({ signedIn: event.signedIn, sessionToken: event.storedSessionToken }),
          },
          target: 'restoring',
          actions: { type: 'assignStoredToken', params: ({ event }) => ({ sessionToken: event.storedSessionToken }) },
        },
      },
    },
    signedIn: {
      tags: ['signedIn'],
      initial: 'idle',
      on: {
        'session.signedIn': {
          target: '.idle',
          actions: { type: 'assignSession', params: ({ event }) => event.session },
        },
        'subscription.updated': {
          actions: { type: 'assignSubscription', params: ({ event }) => ({ subscription: event.subscription }) },
        },
        'session.ended': { target: 'signedOut', actions: 'clearContext' },
      },
      states: {
        idle: {
          on: {
            'subscription.refresh': { target: 'refreshing' },
            'session.signOut': { target: 'signingOut' },
            // Not handled while signing out: our own provider sign-out must not pre-empt the toasts.
            'auth.changed': [
              {
                guard: { type: 'isProviderSignedOut', params: ({ event }) => ({ signedIn: event.signedIn }) },
                target: '#session.signedOut',
                actions: 'clearContext',
              },
              {
                guard: { type: 'hasStoredSessionToken', params: ({ event }) => ({ sessionToken: event.storedSessionToken }) },
                target: 'refreshing',
              },
            ],
          },
        },
        refreshing: {
          tags: ['refreshing'],
          invoke: {
            id: 'fetchSubscription',
            src: 'fetchSubscription',
            input: ({ context }) => ({ sessionToken: context.sessionToken ?? '' }),
            onDone: {
              target: 'idle',
              actions: { type: 'assignSubscription', params: ({ event }) => ({ subscription: event.output }) },
            },
            // Keep the last known subscription; the card's Refresh Status button stays available.
            onError: { target: 'idle' },
          },
          on: {
            'session.signOut': { target: 'signingOut' },
            'auth.changed': {
              guard: { type: 'isProviderSignedOut', params: ({ event }) => ({ signedIn: event.signedIn }) },
              target: '#session.signedOut',
              actions: 'clearContext',
            },
          },
        },
        signingOut: {
          tags: ['signingOut'],
          invoke: {
            id: 'signOut',
            src: 'signOut',
            input: ({ context }) => ({ sessionToken: context.sessionToken }),
            onDone: {
              target: '#session.signedOut',
              actions: ['clearContext', { type: 'showToast', params: SIGN_OUT_SUCCESS_TOAST }],
            },
            onError: { target: 'idle', actions: { type: 'showToast', params: SIGN_OUT_FAILURE_TOAST } },
          },
        },
      },
    },
    failed: {
      tags: ['failed'],
    },
  },
});

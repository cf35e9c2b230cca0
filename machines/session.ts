/**
 * Session (app) machine: start-up, session restore, the signed-in user + subscription, refresh, sign-out.
 * Carries out spec §2 "Start-up", §4 "Session restore", §4 "Sign out", §8 sign-out toasts and start-up
 * failure; design §4 (app / session) and §5 (the session ends while a page is open).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ApiErrorCode, Subscription } from '../contract/api';
import { errorMessage } from './error-message';
import { invokeCall } from './invoke-call';
import { EMPTY_SESSION_CONTEXT, type SessionContext, type SessionTag } from './session-context';
import type { NoInputMachineTypes, Session, ToastParams } from './types';


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
  | { type: 'session.ended' }
  /** The API refused the session (a 401) on a call made outside this machine (devices, hand-off, delete). */
  | { type: 'session.expired' }
  /** An account action found the identity provider's session lapsed (no ID token): sign in again, back here. */
  | { type: 'session.providerExpired' }
  /** The browser is back online (`online` event): while reconnecting, try again now rather than after the back-off. */
  | { type: 'connection.online' };

export interface InitialiseOutput {
  /** Local storage `sessionToken`, if any. */
  storedSessionToken: string | null;
}

const SIGN_OUT_SUCCESS_TOAST: ToastParams = {
  title: 'Signed out successfully',
  message: 'You have been signed out of your account',
  color: 'green',
};
/** A 401 for the session while signed in (issue 11 item 3). */
const SESSION_EXPIRED_TOAST: ToastParams = { title: 'Session expired', message: 'Please sign in again.', color: 'yellow' };

/** Retries back off 1 s, 2 s, 4 s, 8 s, 16 s, then every 30 s; counting stops there (a finite state space). */
const MAX_COUNTED_RETRIES = 5;
export function retryDelayMs(retries: number): number {
  return Math.min(1000 * 2 ** Math.max(retries - 1, 0), 30_000);
}

/**
 * Whether a failure is the API refusing the customer's sign-in, as opposed to no answer or a 5xx: the code
 * `session_invalid`, or any 401. The API answers 401 only when what identifies the caller is no longer
 * valid (a session signed out or expired, an ID token revoked), and each of those means "sign in again"
 * (issue 11 item 3). The SPA's actors reject with an error carrying the HTTP `status` and the API's `code`
 * (src/services/api-client.ts `ApiError`).
 */
const SESSION_INVALID: ApiErrorCode = 'session_invalid';
export function isSessionRefusal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, code } = error as { status?: unknown; code?: unknown };
  return code === SESSION_INVALID || status === 401;
}

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

const sessionSetup = setup({
  types: {} as NoInputMachineTypes<SessionContext, SessionEvent, SessionTag>,
  actors: {
    /** Initialise the identity provider and read the stored session token. */
    initialise: fromPromise<InitialiseOutput>(notProvided('initialise')),
    /** POST /api/auth/verify; rejects with `status: 401` when the API refuses the token, without it when unreachable. */
    verifySession: fromPromise<Session, { sessionToken: string }>(notProvided('verifySession')),
    /** Sign out of the identity provider only (no API call). */
    signOutProvider: fromPromise<void>(notProvided('signOutProvider')),
    /** Current subscription of the signed-in user. */
    fetchSubscription: fromPromise<Subscription | null, { sessionToken: string }>(notProvided('fetchSubscription')),
    /**
     * Full sign-out, once the machine has cleared the stored session (`clearStoredSession` on entering
     * `signingOut`): POST /api/auth/signout and the provider sign-out, both best effort.
     */
    signOut: fromPromise<void, { sessionToken: string | null }>(notProvided('signOut')),
  },
  actions: {
    /**
     * Keep the signed-in session's token in local storage `sessionToken` (read at the next page load and by
     * other tabs). The session machine is the token's one writer: a sign-in hands the session over with
     * `session.signedIn`, and this machine stores it.
     */
    storeSessionToken: (_args, _params: { sessionToken: string }) => {},
    /** Remove local storage `sessionToken` and `token`: the session machine is the one that clears them. */
    clearStoredSession: () => {},
    showToast: (_args, _params: ToastParams) => {},
    /** Go to `/signin?redirect=<the current page>` (the SPA knows the page). */
    redirectToSignIn: () => {},
    assignSession: assign((_args, session: Session) => ({
      user: session.user,
      subscription: session.subscription,
      sessionToken: session.sessionToken,
      error: null,
      retries: 0,
    })),
    assignSubscription: assign((_args, params: { subscription: Subscription | null }) => ({
      subscription: params.subscription,
    })),
    assignStoredToken: assign((_args, params: { sessionToken: string | null }) => ({ sessionToken: params.sessionToken })),
    assignError: assign((_args, params: { message: string }) => ({ error: params.message })),
    clearContext: assign(() => EMPTY_SESSION_CONTEXT),
    countRetry: assign(({ context }) => ({ retries: Math.min(context.retries + 1, MAX_COUNTED_RETRIES) })),
  },
  guards: {
    hasStoredSessionToken: (_args, params: { sessionToken: string | null }) =>
      params.sessionToken !== null && params.sessionToken !== '',
    isProviderSignedOut: (_args, params: { signedIn: boolean }) => !params.signedIn,
    canRestoreSession: (_args, params: { signedIn: boolean; sessionToken: string | null }) =>
      params.signedIn && params.sessionToken !== null && params.sessionToken !== '',
    isSessionRefused: (_args, params: { error: unknown }) => isSessionRefusal(params.error),
  },
  delays: {
    retryDelay: ({ context }) => retryDelayMs(context.retries),
  },
});

type SignedInEvent = Extract<SessionEvent, { type: 'session.signedIn' }>;

/** A session handed over by a sign-in (`session.signedIn`): kept in the context, and its token stored. */
const signedInWith = [
  { type: 'assignSession', params: ({ event }: { event: SignedInEvent }) => event.session },
  { type: 'storeSessionToken', params: ({ event }: { event: SignedInEvent }) => ({ sessionToken: event.session.sessionToken }) },
] as const;

export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  context: EMPTY_SESSION_CONTEXT,
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
        // Only a refusal ends the session; no answer or a 5xx must not sign anyone out (issue 11 item 1).
        onError: [
          { guard: { type: 'isSessionRefused', params: ({ event }) => ({ error: event.error }) }, target: 'clearingSession' },
          { target: 'reconnecting', actions: 'countRetry' },
        ],
      },
      on: {
        'session.signedIn': { target: 'signedIn', actions: signedInWith },
      },
    },
    /** The API could not be reached: keep the stored token, wait (backing off), verify again. */
    reconnecting: {
      tags: ['loading', 'reconnecting'],
      after: { retryDelay: { target: 'restoring' } },
      on: {
        'connection.online': { target: 'restoring' },
        'session.signedIn': { target: 'signedIn', actions: signedInWith },
      },
    },
    clearingSession: {
      tags: ['loading'],
      entry: ['clearContext', 'clearStoredSession'],
      invoke: invokeCall('signOutProvider', { onDone: 'signedOut', onError: 'signedOut' }),
    },
    signedOut: {
      on: {
        'session.signedIn': { target: 'signedIn', actions: signedInWith },
        // A sign-in refused as recently deleted: no stale token may stay behind.
        'session.ended': { actions: 'clearStoredSession' },
        // An account action found the provider's session lapsed after Firebase had already reported it signed
        // out (the page had dropped to "Sign In Required"): say why and sign in again, back to this page.
        'session.providerExpired': { actions: [{ type: 'showToast', params: SESSION_EXPIRED_TOAST }, 'redirectToSignIn'] },
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
        'session.signedIn': { target: '.idle', actions: signedInWith },
        'subscription.updated': {
          actions: { type: 'assignSubscription', params: ({ event }) => ({ subscription: event.subscription }) },
        },
        // Another tab signed out, the account was deleted, or a sign-in found it recently deleted.
        'session.ended': { target: 'signedOut', actions: ['clearContext', 'clearStoredSession'] },
        'session.expired': { target: 'expired' },
        // An account action found no provider session (no ID token): as a refusal.
        'session.providerExpired': { target: 'expired' },
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
            onError: [
              { guard: { type: 'isSessionRefused', params: ({ event }) => ({ error: event.error }) }, target: '#session.expired' },
              // Keep the last known subscription; the card's Refresh Status button stays available.
              { target: 'idle' },
            ],
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
          // First, so that the sign-out holds in this browser (and its other tabs) whatever the calls do.
          entry: 'clearStoredSession',
          invoke: {
            id: 'signOut',
            src: 'signOut',
            input: ({ context }) => ({ sessionToken: context.sessionToken }),
            onDone: { target: '#session.signedOut', actions: ['clearContext', { type: 'showToast', params: SIGN_OUT_SUCCESS_TOAST }] },
            // The stored session was cleared before anything could fail, so a failure still signs out here.
            onError: { target: '#session.signedOut', actions: ['clearContext', { type: 'showToast', params: SIGN_OUT_SUCCESS_TOAST }] },
          },
        },
      },
    },
    /** The API refused the session while signed in: forget it here and ask the customer to sign in again. */
    expired: {
      entry: [
        'clearContext',
        'clearStoredSession',
        { type: 'showToast', params: SESSION_EXPIRED_TOAST },
        'redirectToSignIn',
      ],
      always: { target: 'signedOut' },
    },
    failed: {
      tags: ['failed'],
    },
  },
});

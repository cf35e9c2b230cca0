/**
 * The sign-in machine's setup (likec4's `machine.setup.ts`): its types, constants and every named actor,
 * action, guard and delay. The states that use them are in `sign-in.ts`.
 */
import { assign, fromPromise, setup, stateIn } from 'xstate';
import { deepLinkMachine } from './deep-link';
import { toExchangeRequest } from './exchange-request';
import { isPopupFallbackError, isRecentlyDeletedError } from './sign-in-errors';
import type {
  BrowserLocation,
  ExchangeRequest,
  NavigateParams,
  Provider,
  ProviderCredential,
  Session,
  SignInMode,
  ToastParams,
} from './types';

/** Spec §9: sign-in buttons are debounced 1000 ms by default... */
const SIGN_IN_DEBOUNCE_MS = 1000;
/** ...and 2000 ms when the click happens on the sign-in page. */
const SIGN_IN_PAGE_DEBOUNCE_MS = 2000;
/** Spec §9: the "Account Recently Deleted" toast stays 10000 ms. */
export const RECENTLY_DELETED_TOAST_MS = 10_000;
/** Toast fallback when the API refused a sign-in without a message. */
export const BACKEND_SIGN_IN_FALLBACK = 'Failed to authenticate with backend';

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
  /** The provider's error code, for provider errors. */
  code?: string;
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

/** A click on "Sign in with Google/Apple", with the location it happened at. */
export type SignInEvent = { type: 'signIn.start'; provider: Provider; pathname: string; search: string };

export interface RedirectCheckOutput {
  /** The redirect result (Firebase `getRedirectResult`), or null when there is none. */
  credential: ProviderCredential | null;
  /** Firebase `auth.currentUser !== null` after the check. */
  providerSignedIn: boolean;
  /** Local storage holds a `sessionToken` (the session machine restores that one). */
  hasStoredSession: boolean;
}

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

export const signInSetup = setup({
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
    /**
     * Hand the session to the session machine: `session.send({ type: 'session.signedIn', session })`. The
     * session machine stores its token (it alone writes and clears the stored session).
     */
    handOffSession: (_args, _params: { session: Session }) => {},
    /** Forget the user: `session.send({ type: 'session.ended' })`; the session machine clears the stored tokens. */
    endSession: () => {},
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
});

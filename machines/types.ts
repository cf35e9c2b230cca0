/**
 * Types shared by the machines and by the services that implement their actors and actions.
 * Pure: types only.
 */
import type { EventObject, MachineContext } from 'xstate';
import type { AppleSignInRequest, GoogleSignInRequest, Subscription } from '../contract/api';

/** Identity providers the product signs in with (spec §1). */
export type Provider = 'google' | 'apple';

/** How a sign-in completed: in a popup, back from a redirect, or silently (Firebase still held the user: only an ID token was fetched). */
export type SignInMode = 'popup' | 'redirect' | 'silent';

/** The signed-in user as the SPA keeps it (spec §3 "User (client side)", plus the provider, design §8). */
export interface SessionUser {
  uid: string;
  email: string;
  displayName: string;
  provider: Provider;
}

/** What a completed sign-in or a verified stored token yields. */
export interface Session {
  sessionToken: string;
  user: SessionUser;
  subscription: Subscription | null;
}

/** Parameters of the named action `showToast` (Mantine notification). */
export interface ToastParams {
  title: string;
  message: string;
  /** Mantine colour; red for failures, green for successes. */
  color?: 'green' | 'red' | 'yellow' | 'blue' | 'gray';
  /** Milliseconds before the toast closes; omitted = the app's default. */
  autoClose?: number;
}

/** Parameters of the named action `navigate`. */
export interface NavigateParams {
  to: '/' | '/account' | '/subscribe' | '/signin';
  /** With `/signin` only: the page to return to after signing in again (`?redirect=`). */
  redirect?: string;
}

/** The minimum the account cards need of the user. */
export interface AccountUser {
  uid: string;
  email: string;
}

/** Where the browser is when an event happens; used by sign-in debounce and the deep-link rules. */
export interface BrowserLocation {
  pathname: string;
  search: string;
}

/**
 * What the identity provider gives back for one signed-in user (popup result, redirect result, or the
 * user already signed in). The SPA builds it from the Firebase `UserCredential`/`User`; the machine turns
 * it into the API request (see `toExchangeRequest`).
 */
export interface ProviderCredential {
  provider: Provider;
  /** The provider's ID token (`await user.getIdToken()`); null when none was received. */
  idToken: string | null;
  /** `user.uid` (the provider account uid). */
  accountUid: string;
  /** `user.providerData[0]?.uid` (the provider-data uid), when present. */
  providerUid: string | null;
  email: string | null;
  displayName: string | null;
}

/** Body of POST /api/auth/google/signin or /api/auth/apple/signin (contract/api.ts), with its provider. */
export type ExchangeRequest = ({ provider: 'google' } & GoogleSignInRequest) | ({ provider: 'apple' } & AppleSignInRequest);

/**
 * The types of a machine that takes no input, in one line:
 * `setup({ types: {} as NoInputMachineTypes<Context, Event, Tag>, ... })`. It is started with `{ input: {} }`;
 * any other input does not compile.
 */
export interface NoInputMachineTypes<TContext extends MachineContext, TEvent extends EventObject, TTag extends string> {
  context: TContext;
  events: TEvent;
  input: Record<string, never> | undefined;
  tags: TTag;
}

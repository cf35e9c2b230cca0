/** The pure helpers beside the machines: error catalogue, Apple identifier, the active rule, deep link. */
import { describe, expect, it } from 'vitest';
import { redirectAllowsDesktopLink } from '../../machines/deep-link-decision';
import { decideDeepLink } from './deep-link-oracle';
import {
  chooseAppleUserIdentifier,
  jwtSubject,
  NO_ACCESS_TOKEN_MESSAGE,
  toExchangeRequest,
} from '../../machines/exchange-request';
import { errorMessage } from '../../machines/error-message';
import { describeSignInError, isPopupFallbackError, isRecentlyDeletedError, needsSupport } from '../../machines/sign-in-errors';
import { isSessionRefusal } from '../../machines/session';
import { isActive } from '../../machines/subscription-display';
import { appleCredential, firebaseError, googleCredential } from './fixtures';

function jwt(payload: object): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none' })}.${encode(payload)}.signature`;
}

describe('sign-in error catalogue (spec §8)', () => {
  it.each([
    ['auth/popup-closed-by-user', 'Sign-in window was closed. Please try again.', true],
    ['auth/cancelled-popup-request', 'Another sign-in is in progress. Please wait.', false],
    ['auth/popup-blocked', "Pop-up was blocked by your browser. We'll use a redirect instead.", true],
    ['auth/unauthorized-domain', 'This domain is not authorized. Please contact support.', false],
    ['auth/network-request-failed', 'Network error. Please check your connection and try again.', true],
    ['auth/too-many-requests', 'Too many attempts. Please wait a moment and try again.', true],
    ['auth/internal-error', 'An internal error occurred. Please try again.', true],
    ['auth/invalid-credential', 'Invalid credentials. Please try signing in again.', true],
    ['auth/user-disabled', 'This account has been disabled. Please contact support.', false],
    ['auth/operation-not-allowed', 'This sign-in method is not enabled. Please contact support.', false],
    ['auth/something-new', 'An error occurred during sign-in. Please try again.', true],
  ])('%s -> %s (retry %s)', (code, message, retry) => {
    expect(describeSignInError(firebaseError(code))).toEqual({ code, message, retry });
  });

  it('maps errors without a code to the generic message', () => {
    expect(describeSignInError(new Error('boom'))).toEqual({
      code: undefined,
      message: 'An error occurred during sign-in. Please try again.',
      retry: true,
    });
    expect(describeSignInError('nope').message).toBe('An error occurred during sign-in. Please try again.');
  });

  it('falls back to a redirect only for blocked and cancelled popups (a closed popup gets a toast)', () => {
    expect(isPopupFallbackError(firebaseError('auth/popup-blocked'))).toBe(true);
    expect(isPopupFallbackError(firebaseError('auth/popup-closed-by-user'))).toBe(false);
    expect(isPopupFallbackError(firebaseError('auth/cancelled-popup-request'))).toBe(true);
    expect(isPopupFallbackError(firebaseError('auth/network-request-failed'))).toBe(false);
    expect(isPopupFallbackError(new Error('auth/popup-blocked'))).toBe(false);
  });

  it('recognises "recently deleted" in any case', () => {
    expect(isRecentlyDeletedError(new Error('Account was Recently Deleted; try later'))).toBe(true);
    expect(isRecentlyDeletedError('RECENTLY DELETED')).toBe(true);
    expect(isRecentlyDeletedError(new Error('deleted recently'))).toBe(false);
    expect(isRecentlyDeletedError({ message: 'recently deleted' })).toBe(false);
    expect(isRecentlyDeletedError(undefined)).toBe(false);
  });

  it('decides "recently deleted" by the API code first, by the text as the fallback', () => {
    expect(isRecentlyDeletedError(Object.assign(new Error('Please wait.'), { code: 'recently_deleted' }))).toBe(true);
    expect(isRecentlyDeletedError(Object.assign(new Error('Please wait.'), { code: 'rate_limited' }))).toBe(false);
    expect(isRecentlyDeletedError(new Error('This account was recently deleted.'))).toBe(true);
  });

  it('takes an error message or the fallback', () => {
    expect(errorMessage(new Error('Server says no'), 'fallback')).toBe('Server says no');
    expect(errorMessage(new Error(''), 'fallback')).toBe('fallback');
    expect(errorMessage('text', 'fallback')).toBe('text');
    expect(errorMessage(42, 'fallback')).toBe('fallback');
  });
});

describe('session refusal (design §7)', () => {
  it('is the API code `session_invalid`, or a 401 from an API without codes; not a 5xx or no answer', () => {
    expect(isSessionRefusal({ status: 403, code: 'session_invalid' })).toBe(true);
    expect(isSessionRefusal({ status: 401, code: null })).toBe(true);
    expect(isSessionRefusal({ status: 429, code: 'rate_limited' })).toBe(false);
    expect(isSessionRefusal({ status: 503, code: null })).toBe(false);
    expect(isSessionRefusal({ status: null })).toBe(false);
    expect(isSessionRefusal('offline')).toBe(false);
  });
});

describe('Apple user identifier (spec §5, design §8)', () => {
  it('uses the provider-data uid when it differs from the account uid', () => {
    expect(chooseAppleUserIdentifier({ accountUid: 'a', providerUid: 'p', identityToken: jwt({ sub: 's' }) })).toBe('p');
  });
  it('else the subject claim of the ID token when it differs', () => {
    expect(chooseAppleUserIdentifier({ accountUid: 'a', providerUid: 'a', identityToken: jwt({ sub: 's' }) })).toBe('s');
    expect(chooseAppleUserIdentifier({ accountUid: 'a', providerUid: null, identityToken: jwt({ sub: 's' }) })).toBe('s');
  });
  it('else the account uid', () => {
    expect(chooseAppleUserIdentifier({ accountUid: 'a', providerUid: 'a', identityToken: jwt({ sub: 'a' }) })).toBe('a');
    expect(chooseAppleUserIdentifier({ accountUid: 'a', providerUid: null, identityToken: 'not-a-jwt' })).toBe('a');
  });
  it('reads the subject claim of a JWT, including non-ASCII payloads', () => {
    expect(jwtSubject(jwt({ sub: 'ümlaut-sub', name: 'Zoë' }))).toBe('ümlaut-sub');
    expect(jwtSubject('a.%%%.c')).toBeUndefined();
    expect(jwtSubject(jwt({ nosub: true }))).toBeUndefined();
  });
  it('builds the Apple request, and refuses a credential without an identity token', () => {
    expect(toExchangeRequest({ ...appleCredential, idToken: jwt({ sub: 'uid-2' }) })).toEqual({
      ok: true,
      request: {
        provider: 'apple',
        identityToken: jwt({ sub: 'uid-2' }),
        userIdentifier: 'apple-sub-2',
        email: 'bob@example.com',
        fullName: 'Bob',
      },
    });
    expect(toExchangeRequest(googleCredential)).toEqual({
      ok: true,
      request: { provider: 'google', idToken: 'google-id-token' },
    });
    expect(toExchangeRequest({ ...appleCredential, idToken: null })).toEqual({ ok: false, error: NO_ACCESS_TOKEN_MESSAGE });
    expect(toExchangeRequest({ ...googleCredential, idToken: '' })).toEqual({
      ok: false,
      error: 'No access token received. Please try again.',
    });
  });
});

describe('subscription rule (spec §3)', () => {
  it('treats only "active" as active', () => {
    expect(isActive({ status: 'active' })).toBe(true);
    expect(isActive({ status: 'past_due' })).toBe(false);
    expect(isActive(null)).toBe(false);
    expect(isActive(undefined)).toBe(false);
  });
});

describe('deep-link decision (spec §4 step 5)', () => {
  const base = { subscriptionActive: true, isDesktop: true, mode: 'popup' as const, pathname: '/', search: '' };
  it('opens the desktop app for an active subscription on a desktop after a popup sign-in', () => {
    expect(decideDeepLink(base)).toBe('openDesktopApp');
  });
  it('on a redirect sign-in opens it only on /success, /subscribe or ?openapp=true', () => {
    expect(decideDeepLink({ ...base, mode: 'redirect' })).toBe('/account');
    expect(decideDeepLink({ ...base, mode: 'redirect', pathname: '/success' })).toBe('openDesktopApp');
    expect(decideDeepLink({ ...base, mode: 'redirect', pathname: '/subscribe' })).toBe('openDesktopApp');
    expect(decideDeepLink({ ...base, mode: 'redirect', search: '?openapp=true' })).toBe('openDesktopApp');
    expect(decideDeepLink({ ...base, mode: 'redirect', search: '?openapp=false' })).toBe('/account');
    expect(redirectAllowsDesktopLink({ pathname: '/account', search: '?x=1&openapp=true' })).toBe(true);
  });
  it('goes to /account on a non-desktop device and to /subscribe without an active subscription', () => {
    expect(decideDeepLink({ ...base, isDesktop: false })).toBe('/account');
    expect(decideDeepLink({ ...base, subscriptionActive: false })).toBe('/subscribe');
    expect(decideDeepLink({ ...base, subscriptionActive: false, isDesktop: false })).toBe('/subscribe');
  });
});

describe('sign-in errors that trying again cannot fix', () => {
  it('are the catalogue\'s "no retry" entries, except the popup fallback (retried by a redirect)', () => {
    for (const code of ['auth/unauthorized-domain', 'auth/user-disabled', 'auth/operation-not-allowed']) {
      expect(needsSupport(code), code).toBe(true);
    }
    for (const code of ['auth/cancelled-popup-request', 'auth/popup-closed-by-user', 'auth/network-request-failed', 'auth/unknown', undefined]) {
      expect(needsSupport(code), String(code)).toBe(false);
    }
  });
});

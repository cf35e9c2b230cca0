/** Sign-in machine scenarios (spec §4 "Sign-in flow", §5, §8, §9). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { deepLinkMachine } from '../../machines/deep-link';
import { signInMachine } from '../../machines/sign-in';
import type { RedirectCheckOutput, SignInInput } from '../../machines/sign-in';
import type { ExchangeRequest, Provider, ProviderCredential, Session } from '../../machines/types';
import {
  appleCredential,
  firebaseError,
  googleCredential,
  googleSession,
  inactiveSession,
  tokenlessCredential,
} from './fixtures';
import { deferred, flush, recorder } from './harness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const noRedirect: RedirectCheckOutput = { credential: null, providerSignedIn: false, hasStoredSession: false };

interface Fakes {
  redirect?: () => Promise<RedirectCheckOutput>;
  popup?: (provider: Provider) => Promise<ProviderCredential>;
  exchange?: (request: ExchangeRequest) => Promise<Session>;
  getIdToken?: () => Promise<ProviderCredential>;
  startRedirect?: () => Promise<void>;
  openDesktopApp?: () => Promise<void>;
}

function start(input: Partial<SignInInput> = {}, fakes: Fakes = {}) {
  const rec = recorder();
  const spies = {
    popup: vi.fn(fakes.popup ?? (() => Promise.resolve(googleCredential))),
    exchange: vi.fn(fakes.exchange ?? (() => Promise.resolve(googleSession))),
    getIdToken: vi.fn(fakes.getIdToken ?? (() => Promise.resolve(googleCredential))),
    startRedirect: vi.fn((_provider: Provider) => (fakes.startRedirect ?? (() => new Promise<void>(() => {})))()),
    signOutProvider: vi.fn(() => Promise.resolve()),
    openDesktopApp: vi.fn((_input: { sessionToken: string }) => (fakes.openDesktopApp ?? (() => Promise.resolve()))()),
  };
  const machine = signInMachine.provide({
    actors: {
      consumeRedirectResult: fromPromise(fakes.redirect ?? (() => Promise.resolve(noRedirect))),
      getIdToken: fromPromise(() => spies.getIdToken()),
      signInWithPopup: fromPromise(({ input }) => spies.popup(input.provider)),
      startRedirect: fromPromise(({ input }) => spies.startRedirect(input.provider)),
      exchangeToken: fromPromise(({ input }) => spies.exchange(input.request)),
      signOutProvider: fromPromise(() => spies.signOutProvider()),
      deepLink: deepLinkMachine.provide({
        actors: { openDesktopApp: fromPromise(({ input }) => spies.openDesktopApp(input)) },
        actions: rec.actions('navigate'),
      }),
    },
    actions: rec.actions(
      'storeRedirectPending',
      'clearRedirectPending',
      'handOffSession',
      'endSession',
      'showToast',
      'alert',
      'navigate',
    ),
  });
  const actor = createActor(machine, {
    input: { isDesktop: input.isDesktop ?? true, location: input.location ?? { pathname: '/', search: '' } },
  }).start();
  return { actor, rec, spies };
}

const onSignInPage = { pathname: '/signin', search: '' };
const click = (pathname = '/signin', search = '') => ({ type: 'signIn.start' as const, provider: 'google' as const, pathname, search });

describe('page load (spec §4 step 3)', () => {
  it('consumes the redirect result and clears the redirect flags; nothing else without a result or user', async () => {
    const { actor, rec, spies } = start();
    expect(actor.getSnapshot().hasTag('signingIn')).toBe(true);
    await flush();
    expect(actor.getSnapshot().matches({ attempt: 'idle' })).toBe(true);
    expect(rec.types()).toEqual(['clearRedirectPending']);
    expect(spies.getIdToken).not.toHaveBeenCalled();
  });

  it('a redirect result is exchanged; on /success an active desktop user is handed to the app, then /account after 2000 ms', async () => {
    const { actor, rec, spies } = start(
      { location: { pathname: '/success', search: '' } },
      { redirect: () => Promise.resolve({ ...noRedirect, credential: googleCredential, providerSignedIn: true }) },
    );
    await flush();
    expect(spies.exchange).toHaveBeenCalledWith({ provider: 'google', idToken: 'google-id-token' });
    expect(rec.of('handOffSession')).toEqual([{ session: googleSession }]);
    expect(spies.openDesktopApp).toHaveBeenCalledWith({ sessionToken: 'session-google' });
    expect(rec.of('navigate')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(rec.of('navigate')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(rec.of('navigate')).toEqual([{ to: '/account' }]);
    expect(actor.getSnapshot().matches({ attempt: 'idle' })).toBe(true);
    expect(rec.types().slice(0, 2)).toEqual(['clearRedirectPending', 'handOffSession']);
  });

  it('a redirect result on another page opens no link and goes to /account', async () => {
    const { rec, spies } = start(
      { location: { pathname: '/', search: '' } },
      { redirect: () => Promise.resolve({ ...noRedirect, credential: googleCredential }) },
    );
    await flush();
    expect(spies.openDesktopApp).not.toHaveBeenCalled();
    expect(rec.of('navigate')).toEqual([{ to: '/account' }]);
  });

  it('a redirect result with ?openapp=true opens the desktop link', async () => {
    const { spies } = start(
      { location: { pathname: '/', search: '?openapp=true' } },
      { redirect: () => Promise.resolve({ ...noRedirect, credential: googleCredential }) },
    );
    await flush();
    expect(spies.openDesktopApp).toHaveBeenCalledTimes(1);
  });

  it('no redirect result but a provider user: obtains an ID token and re-establishes the session without navigating', async () => {
    const { rec, spies, actor } = start({}, { redirect: () => Promise.resolve({ ...noRedirect, providerSignedIn: true }) });
    await flush();
    expect(spies.getIdToken).toHaveBeenCalledTimes(1);
    expect(spies.exchange).toHaveBeenCalledWith({ provider: 'google', idToken: 'google-id-token' });
    expect(rec.of('handOffSession')).toEqual([{ session: googleSession }]);
    expect(rec.of('navigate')).toEqual([]);
    expect(rec.of('showToast')).toEqual([]);
    expect(actor.getSnapshot().matches({ attempt: 'idle' })).toBe(true);
  });

  it('a provider user with a stored session is left to the session machine', async () => {
    const { spies } = start(
      {},
      { redirect: () => Promise.resolve({ credential: null, providerSignedIn: true, hasStoredSession: true }) },
    );
    await flush();
    expect(spies.getIdToken).not.toHaveBeenCalled();
    expect(spies.exchange).not.toHaveBeenCalled();
  });

  it('a silent re-establishment that fails shows nothing', async () => {
    const { rec } = start(
      {},
      {
        redirect: () => Promise.resolve({ ...noRedirect, providerSignedIn: true }),
        exchange: () => Promise.reject(new Error('Backend authentication failed')),
      },
    );
    await flush();
    expect(rec.of('showToast')).toEqual([]);
  });

  it('a failed redirect result is mapped through the catalogue', async () => {
    const { rec, actor } = start({}, { redirect: () => Promise.reject(firebaseError('auth/network-request-failed')) });
    await flush();
    expect(rec.of('clearRedirectPending')).toHaveLength(1);
    expect(rec.of('showToast')).toEqual([
      { title: 'Sign-In Failed', message: 'Network error. Please check your connection and try again.', color: 'red' },
    ]);
    expect(actor.getSnapshot().context.lastError).toEqual({
      title: 'Sign-In Failed',
      code: 'auth/network-request-failed',
      message: 'Network error. Please check your connection and try again.',
      retry: true,
    });
  });
});

describe('popup sign-in (spec §4 steps 1, 2, 4, 5)', () => {
  it('popup first; active on desktop: opens the app, then /account after 2000 ms', async () => {
    const { actor, rec, spies } = start({ location: onSignInPage });
    await flush();
    actor.send(click('/signin'));
    expect(actor.getSnapshot().hasTag('signingIn')).toBe(true);
    await flush();
    expect(spies.popup).toHaveBeenCalledWith('google');
    expect(spies.openDesktopApp).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(rec.of('navigate')).toEqual([{ to: '/account' }]);
  });

  it('popup sign-in on /account opens the app and stays', async () => {
    const { actor, rec, spies } = start();
    await flush();
    actor.send(click('/account'));
    await flush();
    expect(spies.openDesktopApp).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(rec.of('navigate')).toEqual([]);
    expect(actor.getSnapshot().matches({ attempt: 'idle' })).toBe(true);
  });

  it('active on a non-desktop device goes to /account', async () => {
    const { actor, rec, spies } = start({ isDesktop: false });
    await flush();
    actor.send(click('/signin'));
    await flush();
    expect(spies.openDesktopApp).not.toHaveBeenCalled();
    expect(rec.of('navigate')).toEqual([{ to: '/account' }]);
  });

  it('not active goes to /subscribe', async () => {
    const { actor, rec } = start({}, { exchange: () => Promise.resolve(inactiveSession) });
    await flush();
    actor.send(click('/signin'));
    await flush();
    expect(rec.of('navigate')).toEqual([{ to: '/subscribe' }]);
  });

  it('a failed hand-off goes straight to /account', async () => {
    const { actor, rec } = start({}, { openDesktopApp: () => Promise.reject(new Error('no hand-off token')) });
    await flush();
    actor.send(click('/signin'));
    await flush();
    expect(rec.of('navigate')).toEqual([{ to: '/account' }]);
  });

  it('Apple: the request carries the identity token and the chosen user identifier', async () => {
    const { actor, spies } = start({}, { popup: () => Promise.resolve(appleCredential) });
    await flush();
    actor.send({ type: 'signIn.start', provider: 'apple', pathname: '/signin', search: '' });
    await flush();
    expect(spies.popup).toHaveBeenCalledWith('apple');
    expect(spies.exchange).toHaveBeenCalledWith({
      provider: 'apple',
      identityToken: 'apple-id-token',
      userIdentifier: 'apple-sub-2',
      email: 'bob@example.com',
      fullName: 'Bob',
    });
  });

  it('auth/popup-closed-by-user: no redirect, the catalogue toast, and a retry is possible', async () => {
    const { actor, rec, spies } = start({}, { popup: () => Promise.reject(firebaseError('auth/popup-closed-by-user')) });
    await flush();
    actor.send({ type: 'signIn.start', provider: 'google', pathname: '/', search: '' });
    await flush();
    expect(spies.startRedirect).not.toHaveBeenCalled();
    expect(rec.of('storeRedirectPending')).toEqual([]);
    expect(rec.of('showToast')).toEqual([
      { title: 'Sign-In Failed', message: 'Sign-in window was closed. Please try again.', color: 'red' },
    ]);
    expect(actor.getSnapshot().context.lastError).toMatchObject({ retry: true });
    expect(actor.getSnapshot().matches({ attempt: 'idle' })).toBe(true);
  });

  it.each([
    ['auth/popup-blocked', "Pop-up was blocked by your browser. We'll use a redirect instead."],
    ['auth/cancelled-popup-request', 'Another sign-in is in progress. Please wait.'],
  ])(
    '%s: stores the redirect flag, says so and falls back to a full-page redirect',
    async (code, message) => {
      const { actor, rec, spies } = start({}, { popup: () => Promise.reject(firebaseError(code)) });
      await flush();
      actor.send({ type: 'signIn.start', provider: 'apple', pathname: '/signin', search: '' });
      await flush();
      expect(rec.of('storeRedirectPending')).toHaveLength(1);
      expect(spies.startRedirect).toHaveBeenCalledWith('apple');
      expect(actor.getSnapshot().matches({ attempt: 'redirecting' })).toBe(true);
      expect(rec.of('showToast')).toEqual([{ title: 'Sign-In Failed', message, color: 'yellow' }]);
    },
  );

  it('a failed redirect start clears the flag and toasts', async () => {
    const { actor, rec } = start(
      {},
      {
        popup: () => Promise.reject(firebaseError('auth/popup-blocked')),
        startRedirect: () => Promise.reject(firebaseError('auth/operation-not-allowed')),
      },
    );
    await flush();
    actor.send(click());
    await flush();
    expect(rec.types()).toEqual(['clearRedirectPending', 'storeRedirectPending', 'showToast', 'clearRedirectPending', 'showToast']);
    expect(rec.of('showToast').slice(1)).toEqual([
      { title: 'Sign-In Failed', message: 'This sign-in method is not enabled. Please contact support.', color: 'red' },
    ]);
  });

  it('other popup errors: "Sign-In Failed" with the catalogue message and its retry flag', async () => {
    const { actor, rec } = start({}, { popup: () => Promise.reject(firebaseError('auth/user-disabled')) });
    await flush();
    actor.send(click());
    await flush();
    expect(rec.of('showToast')).toEqual([
      { title: 'Sign-In Failed', message: 'This account has been disabled. Please contact support.', color: 'red' },
    ]);
    expect(actor.getSnapshot().context.lastError?.retry).toBe(false);
    expect(actor.getSnapshot().matches({ attempt: 'idle' })).toBe(true);
  });

  it('no token received: "Authentication Error" / "No access token received. Please try again."', async () => {
    const { actor, rec, spies } = start({}, { popup: () => Promise.resolve(tokenlessCredential) });
    await flush();
    actor.send(click());
    await flush();
    expect(spies.exchange).not.toHaveBeenCalled();
    expect(rec.of('showToast')).toEqual([
      { title: 'Authentication Error', message: 'No access token received. Please try again.', color: 'red' },
    ]);
  });

  it('backend errors: "Sign-In Error" with the server message, else the fallback', async () => {
    const { actor, rec } = start({}, { exchange: () => Promise.reject(new Error('Invalid ID token')) });
    await flush();
    actor.send(click('/'));
    await flush();
    expect(rec.of('showToast')).toEqual([{ title: 'Sign-In Error', message: 'Invalid ID token', color: 'red' }]);

    const second = start({}, { exchange: () => Promise.reject(new Error('')) });
    await flush();
    second.actor.send(click('/'));
    await flush();
    expect(second.rec.of('showToast')).toEqual([
      { title: 'Sign-In Error', message: 'Failed to authenticate with backend', color: 'red' },
    ]);
    expect(second.rec.of('handOffSession')).toEqual([]);
  });
});

describe('recently deleted (spec §4 step 6)', () => {
  const refused = () => Promise.reject(new Error('This account was Recently Deleted. Please wait before signing up again.'));

  it('popup: signs out of the provider, clears tokens and user, toasts for 10000 ms', async () => {
    const { actor, rec, spies } = start({}, { exchange: refused });
    await flush();
    actor.send(click());
    await flush();
    expect(spies.signOutProvider).toHaveBeenCalledTimes(1);
    expect(rec.of('endSession')).toHaveLength(1);
    expect(rec.of('showToast')).toEqual([
      {
        title: 'Account Recently Deleted',
        message: 'This account was Recently Deleted. Please wait before signing up again.',
        color: 'blue',
        autoClose: 10000,
      },
    ]);
    expect(rec.of('alert')).toEqual([]);
    expect(rec.of('navigate')).toEqual([]);
    expect(rec.of('handOffSession')).toEqual([]);
  });

  it('redirect: alerts the error and goes to /signin', async () => {
    const { rec, spies } = start(
      {},
      { redirect: () => Promise.resolve({ ...noRedirect, credential: googleCredential }), exchange: refused },
    );
    await flush();
    expect(spies.signOutProvider).toHaveBeenCalledTimes(1);
    expect(rec.of('endSession')).toHaveLength(1);
    expect(rec.of('alert')).toEqual([{ message: 'This account was Recently Deleted. Please wait before signing up again.' }]);
    expect(rec.of('navigate')).toEqual([{ to: '/signin' }]);
    expect(rec.of('showToast')).toEqual([]);
  });

  it('is decided by the API code `recently_deleted`, whatever the wording', async () => {
    const coded = Object.assign(new Error('Please wait 30 days before signing up again.'), { status: 403, code: 'recently_deleted' });
    const { actor, rec, spies } = start({}, { exchange: () => Promise.reject(coded) });
    await flush();
    actor.send(click());
    await flush();
    expect(spies.signOutProvider).toHaveBeenCalledTimes(1);
    expect(rec.of('showToast')).toEqual([
      { title: 'Account Recently Deleted', message: 'Please wait 30 days before signing up again.', color: 'blue', autoClose: 10000 },
    ]);
  });
});

describe('debounce and single flight (spec §4 step 7, §5, §9)', () => {
  const failFast = { popup: () => Promise.reject(firebaseError('auth/user-disabled')) };

  it('on /signin a second click 1500 ms after the first is ignored; one at 2100 ms starts a sign-in', async () => {
    const { actor, spies } = start({}, failFast);
    await flush();
    actor.send(click('/signin'));
    await flush();
    expect(spies.popup).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ attempt: 'idle' })).toBe(true);
    expect(actor.getSnapshot().hasTag('coolingDown')).toBe(true);
    await vi.advanceTimersByTimeAsync(1500);
    actor.send(click('/signin'));
    await flush();
    expect(spies.popup).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(600);
    actor.send(click('/signin'));
    await flush();
    expect(spies.popup).toHaveBeenCalledTimes(2);
  });

  it('elsewhere the cool-down is 1000 ms', async () => {
    const { actor, spies } = start({}, failFast);
    await flush();
    actor.send(click('/'));
    await vi.advanceTimersByTimeAsync(900);
    actor.send(click('/'));
    await flush();
    expect(spies.popup).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(200);
    actor.send(click('/'));
    await flush();
    expect(spies.popup).toHaveBeenCalledTimes(2);
  });

  it('a click while a sign-in runs is ignored, however long it runs', async () => {
    const popup = deferred<ProviderCredential>();
    const { actor, spies } = start({}, { popup: () => popup.promise });
    await flush();
    actor.send(click('/'));
    await vi.advanceTimersByTimeAsync(5000);
    actor.send(click('/'));
    actor.send({ type: 'signIn.start', provider: 'apple', pathname: '/', search: '' });
    await flush();
    expect(spies.popup).toHaveBeenCalledTimes(1);
    // The ignored clicks did not start a cool-down of their own.
    expect(actor.getSnapshot().hasTag('coolingDown')).toBe(false);
    popup.reject(firebaseError('auth/user-disabled'));
    await flush();
    actor.send(click('/'));
    await flush();
    expect(spies.popup).toHaveBeenCalledTimes(2);
  });

  it('clicks during the page-load redirect check are ignored', async () => {
    const check = deferred<RedirectCheckOutput>();
    const { actor, spies } = start({}, { redirect: () => check.promise });
    actor.send(click('/'));
    check.resolve(noRedirect);
    await flush();
    expect(spies.popup).not.toHaveBeenCalled();
    expect(actor.getSnapshot().hasTag('coolingDown')).toBe(false);
  });
});

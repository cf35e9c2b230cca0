/** Session machine scenarios (spec §2 Start-up, §4 Session restore and Sign out). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Subscription } from '../../contract/api';
import { retryDelayMs, sessionMachine } from '../../machines/session';
import type { InitialiseOutput } from '../../machines/session';
import type { Session } from '../../machines/types';
import { activeSubscription, cancellingSubscription, googleSession, inactiveSession } from './fixtures';
import { deferred, flush, recorder } from './harness';

/** What the API client throws when the API answers 401 for the session. */
const refusal = () => Object.assign(new Error('Your session has expired. Please sign in again.'), { status: 401 });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function start(options: {
  initialise?: () => Promise<InitialiseOutput>;
  verifySession?: (input: { sessionToken: string }) => Promise<Session>;
  signOut?: () => Promise<void>;
  fetchSubscription?: () => Promise<Subscription | null>;
} = {}) {
  const rec = recorder();
  const spies = {
    verifySession: vi.fn(options.verifySession ?? (() => Promise.resolve(googleSession))),
    signOutProvider: vi.fn(() => Promise.resolve()),
    signOut: vi.fn((_input: { sessionToken: string | null }) => (options.signOut ?? (() => Promise.resolve()))()),
    fetchSubscription: vi.fn((_input: { sessionToken: string }) =>
      (options.fetchSubscription ?? (() => Promise.resolve(activeSubscription)))(),
    ),
  };
  const machine = sessionMachine.provide({
    actors: {
      initialise: fromPromise(options.initialise ?? (() => Promise.resolve({ storedSessionToken: null }))),
      verifySession: fromPromise(({ input }) => spies.verifySession(input)),
      signOutProvider: fromPromise(() => spies.signOutProvider()),
      signOut: fromPromise(({ input }) => spies.signOut(input)),
      fetchSubscription: fromPromise(({ input }) => spies.fetchSubscription(input)),
    },
    actions: rec.actions('clearStoredSession', 'showToast', 'redirectToSignIn'),
  });
  const actor = createActor(machine, { input: {} }).start();
  return { actor, rec, spies };
}

describe('start-up', () => {
  it('is loading until initialisation settles, then signed out without a stored token', async () => {
    const init = deferred<InitialiseOutput>();
    const { actor, spies } = start({ initialise: () => init.promise });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    init.resolve({ storedSessionToken: null });
    await flush();
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().hasTag('loading')).toBe(false);
    expect(spies.verifySession).not.toHaveBeenCalled();
  });

  it('shows the "Authentication Error" page state with the error message when initialisation fails', async () => {
    const { actor } = start({ initialise: () => Promise.reject(new Error('Missing identity provider configuration')) });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().hasTag('failed')).toBe(true);
    expect(actor.getSnapshot().hasTag('loading')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Missing identity provider configuration');
  });
});

describe('session restore', () => {
  it('verifies a stored session token and restores user and subscription', async () => {
    const { actor, spies } = start({ initialise: () => Promise.resolve({ storedSessionToken: 'stored' }) });
    await flush();
    expect(spies.verifySession).toHaveBeenCalledWith({ sessionToken: 'stored' });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ signedIn: 'idle' })).toBe(true);
    expect(snapshot.context).toEqual({
      user: googleSession.user,
      subscription: googleSession.subscription,
      sessionToken: googleSession.sessionToken,
      error: null,
      retries: 0,
    });
  });

  it('stays loading while verifying', async () => {
    const verify = deferred<Session>();
    const { actor } = start({
      initialise: () => Promise.resolve({ storedSessionToken: 'stored' }),
      verifySession: () => verify.promise,
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('restoring');
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
  });

  it('a refusal (401) clears the stored session and signs out of the provider', async () => {
    const { actor, rec, spies } = start({
      initialise: () => Promise.resolve({ storedSessionToken: 'stale' }),
      verifySession: () => Promise.reject(refusal()),
    });
    await flush();
    expect(rec.types()).toEqual(['clearStoredSession']);
    expect(spies.signOutProvider).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.sessionToken).toBeNull();
  });

  it.each([
    ['no answer (network failure)', Object.assign(new Error('Failed to verify session'), { status: null })],
    ['a 5xx', Object.assign(new Error('Session verification failed'), { status: 503 })],
  ])('on %s keeps the token, retries with back-off and signs in once the API answers', async (_case, error) => {
    let failures = 3;
    const { actor, rec, spies } = start({
      initialise: () => Promise.resolve({ storedSessionToken: 'stored' }),
      verifySession: () => (failures-- > 0 ? Promise.reject(error) : Promise.resolve(googleSession)),
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('reconnecting');
    expect(actor.getSnapshot().hasTag('reconnecting')).toBe(true);
    expect(actor.getSnapshot().context.sessionToken).toBe('stored');
    expect(rec.types()).toEqual([]);
    expect(spies.signOutProvider).not.toHaveBeenCalled();
    // Back-off: 1 s, then 2 s, then 4 s between attempts.
    await vi.advanceTimersByTimeAsync(999);
    expect(spies.verifySession).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(spies.verifySession).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(spies.verifySession).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(spies.verifySession).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(4000);
    expect(spies.verifySession).toHaveBeenCalledTimes(4);
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.user).toEqual(googleSession.user);
    expect(actor.getSnapshot().context.retries).toBe(0);
    expect(rec.types()).toEqual([]);
  });

  it('checks again at once when the browser comes back online, without waiting for the back-off', async () => {
    let failures = 1;
    const { actor, spies } = start({
      initialise: () => Promise.resolve({ storedSessionToken: 'stored' }),
      verifySession: () =>
        failures-- > 0 ? Promise.reject(Object.assign(new Error('offline'), { status: null })) : Promise.resolve(googleSession),
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('reconnecting');
    actor.send({ type: 'connection.online' });
    await flush();
    expect(spies.verifySession).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
  });

  it('backs off up to 30 s between attempts', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('signed in', () => {
  async function signedIn(options: Parameters<typeof start>[0] = {}) {
    const harness = start(options);
    await flush();
    harness.actor.send({ type: 'session.signedIn', session: googleSession });
    return harness;
  }

  it('a completed sign-in hands the session in', async () => {
    const { actor } = await signedIn();
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(true);
    expect(actor.getSnapshot().context.user).toEqual(googleSession.user);
    actor.send({ type: 'session.signedIn', session: inactiveSession });
    expect(actor.getSnapshot().context.user?.email).toBe('bob@example.com');
  });

  it('refreshes the subscription on request, tagged "refreshing"', async () => {
    const fetched = deferred<Subscription | null>();
    const { actor, spies } = await signedIn({ fetchSubscription: () => fetched.promise });
    actor.send({ type: 'subscription.refresh' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    expect(spies.fetchSubscription).toHaveBeenCalledWith({ sessionToken: 'session-google' });
    fetched.resolve(cancellingSubscription);
    await flush();
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(false);
    expect(actor.getSnapshot().context.subscription).toEqual(cancellingSubscription);
  });

  it('a refresh refused with 401 signs out locally, toasts "Session expired" and goes to sign in again', async () => {
    const { actor, rec, spies } = await signedIn({ fetchSubscription: () => Promise.reject(refusal()) });
    actor.send({ type: 'subscription.refresh' });
    await flush();
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toEqual({ user: null, subscription: null, sessionToken: null, error: null, retries: 0 });
    expect(rec.calls).toEqual([
      { type: 'clearStoredSession', params: undefined },
      { type: 'showToast', params: { title: 'Session expired', message: 'Please sign in again.', color: 'yellow' } },
      { type: 'redirectToSignIn', params: undefined },
    ]);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('a 401 on another call (devices, hand-off, delete) ends the session the same way', async () => {
    const { actor, rec } = await signedIn();
    actor.send({ type: 'session.expired' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(rec.types()).toEqual(['clearStoredSession', 'showToast', 'redirectToSignIn']);
    actor.send({ type: 'session.expired' });
    expect(rec.types()).toHaveLength(3);
  });

  it('keeps the last subscription when a refresh fails', async () => {
    const { actor } = await signedIn({ fetchSubscription: () => Promise.reject(new Error('offline')) });
    actor.send({ type: 'subscription.refresh' });
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.subscription).toEqual(activeSubscription);
  });

  it('auth-state change with a stored token refreshes the subscription', async () => {
    const { actor, spies } = await signedIn();
    actor.send({ type: 'auth.changed', signedIn: true, storedSessionToken: 'session-google' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    await flush();
    expect(spies.fetchSubscription).toHaveBeenCalledTimes(1);
  });

  it('auth-state change without a stored token does nothing', async () => {
    const { actor, spies } = await signedIn();
    actor.send({ type: 'auth.changed', signedIn: true, storedSessionToken: null });
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(spies.fetchSubscription).not.toHaveBeenCalled();
  });

  it('auth-state change to signed out clears user and subscription', async () => {
    const { actor, rec } = await signedIn();
    actor.send({ type: 'auth.changed', signedIn: false, storedSessionToken: null });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toEqual({ user: null, subscription: null, sessionToken: null, error: null, retries: 0 });
    expect(rec.of('showToast')).toEqual([]);
  });

  it('another tab signed out: forgets the session locally, no provider call, no toast', async () => {
    const { actor, rec, spies } = await signedIn();
    actor.send({ type: 'session.ended' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(spies.signOut).not.toHaveBeenCalled();
    expect(spies.signOutProvider).not.toHaveBeenCalled();
    // The one action: the stored session is cleared (the other tab has already; the session machine alone
    // clears it, so the same event also serves an account deletion: issue 33 item 4).
    expect(rec.calls).toEqual([{ type: 'clearStoredSession', params: undefined }]);
  });

  it('a subscription update replaces the subscription', async () => {
    const { actor } = await signedIn();
    actor.send({ type: 'subscription.updated', subscription: cancellingSubscription });
    expect(actor.getSnapshot().context.subscription).toEqual(cancellingSubscription);
  });
});

describe('sign-out', () => {
  it('signs out, clears user and subscription, toasts "Signed out successfully"', async () => {
    const done = deferred<void>();
    const { actor, rec, spies } = start({ signOut: () => done.promise });
    await flush();
    actor.send({ type: 'session.signedIn', session: googleSession });
    actor.send({ type: 'session.signOut' });
    expect(actor.getSnapshot().hasTag('signingOut')).toBe(true);
    expect(spies.signOut).toHaveBeenCalledWith({ sessionToken: 'session-google' });
    // Our own provider sign-out reports an auth change before the actor settles: it must not pre-empt.
    actor.send({ type: 'auth.changed', signedIn: false, storedSessionToken: null });
    expect(actor.getSnapshot().hasTag('signingOut')).toBe(true);
    done.resolve();
    await flush();
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(actor.getSnapshot().context.subscription).toBeNull();
    expect(rec.of('showToast')).toEqual([
      { title: 'Signed out successfully', message: 'You have been signed out of your account', color: 'green' },
    ]);
  });

  it('always signs out locally, even when the sign-out actor fails (offline)', async () => {
    const { actor, rec } = start({ signOut: () => Promise.reject(new Error('offline')) });
    await flush();
    actor.send({ type: 'session.signedIn', session: googleSession });
    actor.send({ type: 'session.signOut' });
    await flush();
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(rec.types()).toEqual(['clearStoredSession', 'showToast']);
    expect(rec.of('showToast')).toEqual([
      { title: 'Signed out successfully', message: 'You have been signed out of your account', color: 'green' },
    ]);
  });

  it('a sign-in in another tab is picked up from the stored token', async () => {
    const { actor, spies } = start();
    await flush();
    actor.send({ type: 'auth.changed', signedIn: true, storedSessionToken: 'from-other-tab' });
    expect(actor.getSnapshot().value).toBe('restoring');
    await flush();
    expect(spies.verifySession).toHaveBeenCalledWith({ sessionToken: 'from-other-tab' });
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(true);
  });
});

describe('the session machine alone writes and clears the stored session token (issue 33 item 4)', () => {
  function recording() {
    const rec = recorder();
    const order: string[] = [];
    const machine = sessionMachine.provide({
      actors: {
        initialise: fromPromise<InitialiseOutput>(() => Promise.resolve({ storedSessionToken: null })),
        signOutProvider: fromPromise(() => Promise.resolve()),
        signOut: fromPromise(async () => {
          order.push('signOut');
        }),
      },
      actions: {
        ...rec.actions('storeSessionToken', 'showToast'),
        clearStoredSession: () => order.push('clearStoredSession'),
      },
    });
    return { actor: createActor(machine, { input: {} }).start(), rec, order };
  }

  it('a session handed over by a sign-in is stored, also over another one', async () => {
    const { actor, rec } = recording();
    await flush();
    actor.send({ type: 'session.signedIn', session: googleSession });
    actor.send({ type: 'session.signedIn', session: inactiveSession });
    expect(rec.of('storeSessionToken')).toEqual([{ sessionToken: 'session-google' }, { sessionToken: 'session-inactive' }]);
  });

  it('Sign Out clears the stored session before it calls anything', async () => {
    const { actor, order } = recording();
    await flush();
    actor.send({ type: 'session.signedIn', session: googleSession });
    actor.send({ type: 'session.signOut' });
    await flush();
    expect(order).toEqual(['clearStoredSession', 'signOut']);
  });

  it('an ended session (account deleted, another tab, a recently deleted sign-in) clears it, signed in or not', async () => {
    const { actor, order } = recording();
    await flush();
    actor.send({ type: 'session.ended' });
    expect(order).toEqual(['clearStoredSession']);
    actor.send({ type: 'session.signedIn', session: googleSession });
    actor.send({ type: 'session.ended' });
    expect(order).toEqual(['clearStoredSession', 'clearStoredSession']);
    expect(actor.getSnapshot().value).toBe('signedOut');
  });
});

describe('a lapsed identity-provider session found by an account action (issue 34)', () => {
  async function signedIn() {
    const harness = start();
    await flush();
    harness.actor.send({ type: 'session.signedIn', session: googleSession });
    return harness;
  }

  it('signed in: ends the session as expired; already signed out by Firebase: still says why and signs in again', async () => {
    const { actor, rec } = await signedIn();
    actor.send({ type: 'session.providerExpired' });
    expect(rec.types()).toEqual(['clearStoredSession', 'showToast', 'redirectToSignIn']);

    const second = await signedIn();
    // Firebase loaded for the action and reported the provider signed out first: the page fell silently.
    second.actor.send({ type: 'auth.changed', signedIn: false, storedSessionToken: 'session-google' });
    expect(second.actor.getSnapshot().value).toBe('signedOut');
    expect(second.rec.calls).toEqual([]);
    second.actor.send({ type: 'session.providerExpired' });
    expect(second.rec.of('showToast')).toEqual([{ title: 'Session expired', message: 'Please sign in again.', color: 'yellow' }]);
    expect(second.rec.types()).toEqual(['showToast', 'redirectToSignIn']);
  });
});

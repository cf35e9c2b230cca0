/** Session machine scenarios (spec §2 Start-up, §4 Session restore and Sign out). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Subscription } from '../../contract/api';
import { sessionMachine } from '../../machines/session';
import type { InitialiseOutput } from '../../machines/session';
import type { Session } from '../../machines/types';
import { activeSubscription, cancellingSubscription, googleSession, inactiveSession } from './fixtures';
import { deferred, flush, recorder } from './harness';

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
    actions: rec.actions('clearStoredSession', 'showToast'),
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

  it('on failure clears the stored session and signs out of the provider', async () => {
    const { actor, rec, spies } = start({
      initialise: () => Promise.resolve({ storedSessionToken: 'stale' }),
      verifySession: () => Promise.reject(new Error('Session verification failed')),
    });
    await flush();
    expect(rec.types()).toEqual(['clearStoredSession']);
    expect(spies.signOutProvider).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.sessionToken).toBeNull();
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
    expect(actor.getSnapshot().context).toEqual({ user: null, subscription: null, sessionToken: null, error: null });
    expect(rec.of('showToast')).toEqual([]);
  });

  it('another tab signed out: forgets the session locally, no provider call, no toast', async () => {
    const { actor, rec, spies } = await signedIn();
    actor.send({ type: 'session.ended' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(spies.signOut).not.toHaveBeenCalled();
    expect(spies.signOutProvider).not.toHaveBeenCalled();
    expect(rec.calls).toEqual([]);
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

  it('on failure stays signed in and toasts "Sign out failed" / "Please try again"', async () => {
    const { actor, rec } = start({ signOut: () => Promise.reject(new Error('offline')) });
    await flush();
    actor.send({ type: 'session.signedIn', session: googleSession });
    actor.send({ type: 'session.signOut' });
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.user).toEqual(googleSession.user);
    expect(rec.of('showToast')).toEqual([{ title: 'Sign out failed', message: 'Please try again', color: 'red' }]);
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

/** Checkout machine scenarios (spec §4 "Subscribe", §5, §8). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { checkoutMachine } from '../../machines/checkout';
import { activeSubscription, inactiveSubscription } from './fixtures';
import { deferred, flush, recorder } from './harness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const user = { uid: 'uid-1', email: 'ada@example.com' };

function start(create: () => Promise<{ url: string }> = () => Promise.resolve({ url: 'https://pay.example/c/1' })) {
  const rec = recorder();
  const createCheckout = vi.fn((_input: { email: string }) => create());
  const actor = createActor(
    checkoutMachine.provide({
      actors: { createCheckout: fromPromise(({ input }) => createCheckout(input)) },
      actions: rec.actions('showToast', 'navigate', 'redirectToCheckout'),
    }),
    { input: {} },
  ).start();
  return { actor, rec, createCheckout };
}

describe('Subscribe Now', () => {
  it('not signed in: toast "Authentication required" / "Please sign in to subscribe" only', () => {
    const { actor, rec, createCheckout } = start();
    actor.send({ type: 'checkout.start', user: null, subscription: null });
    expect(rec.calls).toEqual([
      { type: 'showToast', params: { title: 'Authentication required', message: 'Please sign in to subscribe', color: 'yellow' } },
    ]);
    expect(createCheckout).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('already active: toast "Already subscribed" and go to /account', () => {
    const { actor, rec, createCheckout } = start();
    actor.send({ type: 'checkout.start', user, subscription: activeSubscription });
    expect(rec.calls).toEqual([
      {
        type: 'showToast',
        params: { title: 'Already subscribed', message: 'You already have an active subscription', color: 'blue' },
      },
      { type: 'navigate', params: { to: '/account' } },
    ]);
    expect(createCheckout).not.toHaveBeenCalled();
  });

  it('otherwise requests a checkout (busy) and redirects the browser to its URL', async () => {
    const response = deferred<{ url: string }>();
    const { actor, rec, createCheckout } = start(() => response.promise);
    actor.send({ type: 'checkout.start', user, subscription: inactiveSubscription });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(createCheckout).toHaveBeenCalledWith({ email: 'ada@example.com' });
    actor.send({ type: 'checkout.start', user, subscription: null });
    expect(createCheckout).toHaveBeenCalledTimes(1);
    response.resolve({ url: 'https://pay.example/c/1' });
    await flush();
    expect(rec.calls).toEqual([{ type: 'redirectToCheckout', params: { url: 'https://pay.example/c/1' } }]);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    actor.send({ type: 'checkout.reset' });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('failure: toast "Checkout failed" with the server message, or "Please try again"', async () => {
    const first = start(() => Promise.reject(new Error('Failed to create checkout session')));
    first.actor.send({ type: 'checkout.start', user, subscription: null });
    await flush();
    expect(first.rec.of('showToast')).toEqual([
      { title: 'Checkout failed', message: 'Failed to create checkout session', color: 'red' },
    ]);
    const second = start(() => Promise.reject(new Error('')));
    second.actor.send({ type: 'checkout.start', user, subscription: null });
    await flush();
    expect(second.rec.of('showToast')).toEqual([{ title: 'Checkout failed', message: 'Please try again', color: 'red' }]);
    expect(second.actor.getSnapshot().value).toBe('idle');
  });
});

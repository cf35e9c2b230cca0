/** Subscription card / auto-renewal scenarios (spec §2 Account, §4 "Auto-renewal", "Account actions", §8). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { autoRenewalMachine, cancelFailureMessage } from '../../machines/auto-renewal';
import type { AccountUser } from '../../machines/types';
import { deferred, flush, recorder } from './harness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const user = { uid: 'uid-1', email: 'ada@example.com' };

function start(
  options: {
    user?: AccountUser | null;
    cancel?: () => Promise<void>;
    refresh?: () => Promise<void>;
  } = {},
) {
  const rec = recorder();
  const cancelSubscription = vi.fn((_input: { user: AccountUser }) =>
    (options.cancel ?? (() => Promise.resolve()))(),
  );
  const refreshSubscription = vi.fn(options.refresh ?? (() => Promise.resolve()));
  const actor = createActor(
    autoRenewalMachine.provide({
      actors: {
        cancelSubscription: fromPromise(({ input }) => cancelSubscription(input)),
        refreshSubscription: fromPromise(() => refreshSubscription()),
      },
      actions: rec.actions('showToast'),
    }),
    { input: { user: options.user === undefined ? user : options.user } },
  ).start();
  return { actor, rec, cancelSubscription, refreshSubscription };
}

describe('Refresh Status', () => {
  it('is tagged "refreshing" until the refresh settles', async () => {
    const refresh = deferred<void>();
    const { actor } = start({ refresh: () => refresh.promise });
    actor.send({ type: 'subscription.refresh' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    refresh.resolve();
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
  });
  it('a failed refresh returns to idle quietly', async () => {
    const { actor, rec } = start({ refresh: () => Promise.reject(new Error('offline')) });
    actor.send({ type: 'subscription.refresh' });
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(rec.calls).toEqual([]);
  });
});

describe('Turn Off Auto-Renewal', () => {
  it('asks for confirmation; dismissing closes the dialog without a call', () => {
    const { actor, cancelSubscription } = start();
    actor.send({ type: 'autoRenewal.turnOff' });
    expect(actor.getSnapshot().hasTag('dialogOpen')).toBe(true);
    actor.send({ type: 'autoRenewal.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(cancelSubscription).not.toHaveBeenCalled();
  });

  it('confirm: cancelling ("Processing..."), success toast, then the subscription is refreshed', async () => {
    const cancel = deferred<void>();
    const { actor, rec, cancelSubscription, refreshSubscription } = start({ cancel: () => cancel.promise });
    actor.send({ type: 'autoRenewal.turnOff' });
    actor.send({ type: 'autoRenewal.confirm' });
    expect(actor.getSnapshot().hasTag('cancelling')).toBe(true);
    expect(cancelSubscription).toHaveBeenCalledWith({ user });
    cancel.resolve();
    await flush();
    expect(rec.of('showToast')).toEqual([
      {
        title: 'Subscription Cancelled',
        message: 'Your subscription will remain active until the end of your billing period.',
        color: 'green',
      },
    ]);
    expect(refreshSubscription).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('refused by the server: "Cancellation Failed" (red) with the server text, else the fallback', async () => {
    // The API client throws every refusal (a 4xx, or `success: false`) as an Error with the API's text.
    const first = start({ cancel: () => Promise.reject(new Error('No active subscription')) });
    first.actor.send({ type: 'autoRenewal.turnOff' });
    first.actor.send({ type: 'autoRenewal.confirm' });
    await flush();
    expect(first.rec.of('showToast')).toEqual([
      { title: 'Cancellation Failed', message: 'No active subscription', color: 'red' },
    ]);
    expect(first.refreshSubscription).not.toHaveBeenCalled();

    const second = start({ cancel: () => Promise.reject(new Error('')) });
    second.actor.send({ type: 'autoRenewal.turnOff' });
    second.actor.send({ type: 'autoRenewal.confirm' });
    await flush();
    expect(second.rec.of('showToast')).toEqual([
      { title: 'Cancellation Failed', message: 'Failed to cancel subscription', color: 'red' },
    ]);
  });

  it('an Error shows its text; a non-Error failure shows "Please try again"', async () => {
    const first = start({ cancel: () => Promise.reject(new Error('Gateway timeout')) });
    first.actor.send({ type: 'autoRenewal.turnOff' });
    first.actor.send({ type: 'autoRenewal.confirm' });
    await flush();
    expect(first.rec.of('showToast')).toEqual([{ title: 'Cancellation Failed', message: 'Gateway timeout', color: 'red' }]);

    const second = start({ cancel: () => Promise.reject('network down') });
    second.actor.send({ type: 'autoRenewal.turnOff' });
    second.actor.send({ type: 'autoRenewal.confirm' });
    await flush();
    expect(second.rec.of('showToast')).toEqual([{ title: 'Cancellation Failed', message: 'Please try again', color: 'red' }]);
    expect(second.actor.getSnapshot().value).toBe('idle');
    expect(cancelFailureMessage(new Error(''))).toBe('Failed to cancel subscription');
  });

  it('does nothing without a signed-in user', () => {
    const { actor, rec, cancelSubscription } = start({ user: null });
    actor.send({ type: 'autoRenewal.turnOff' });
    actor.send({ type: 'autoRenewal.confirm' });
    expect(cancelSubscription).not.toHaveBeenCalled();
    expect(rec.calls).toEqual([]);
    expect(actor.getSnapshot().value).toBe('idle');
  });
});

describe('Re-enable', () => {
  it('only toasts how to get auto-renewal back', () => {
    const { actor, rec, cancelSubscription } = start();
    actor.send({ type: 'autoRenewal.reEnable' });
    expect(rec.of('showToast')).toEqual([
      {
        title: 'Auto-Renewal',
        message:
          'Auto-renewal cannot be turned back on here. Contact support, or subscribe again after your current period ends.',
        color: 'blue',
      },
    ]);
    expect(cancelSubscription).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('idle');
  });
});

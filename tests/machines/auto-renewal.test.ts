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
    resume?: () => Promise<void>;
    refund?: () => Promise<void>;
  } = {},
) {
  const rec = recorder();
  const cancelSubscription = vi.fn((_input: { user: AccountUser }) =>
    (options.cancel ?? (() => Promise.resolve()))(),
  );
  const refreshSubscription = vi.fn(options.refresh ?? (() => Promise.resolve()));
  const resumeSubscription = vi.fn((_input: { user: AccountUser }) => (options.resume ?? (() => Promise.resolve()))());
  const refundSubscription = vi.fn((_input: { user: AccountUser }) => (options.refund ?? (() => Promise.resolve()))());
  const actor = createActor(
    autoRenewalMachine.provide({
      actors: {
        cancelSubscription: fromPromise(({ input }) => cancelSubscription(input)),
        refreshSubscription: fromPromise(() => refreshSubscription()),
        resumeSubscription: fromPromise(({ input }) => resumeSubscription(input)),
        refundSubscription: fromPromise(({ input }) => refundSubscription(input)),
      },
      actions: rec.actions('showToast'),
    }),
    { input: { user: options.user === undefined ? user : options.user } },
  ).start();
  return { actor, rec, cancelSubscription, refreshSubscription, resumeSubscription, refundSubscription };
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
        title: 'Auto-renewal is off',
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

// Issue 20 (design §8 overrides the spec's toast-only Re-enable): confirmed, then done.
describe('Re-enable', () => {
  it('asks for confirmation; dismissing closes the dialog without a call', () => {
    const { actor, resumeSubscription, rec } = start();
    actor.send({ type: 'autoRenewal.reEnable' });
    expect(actor.getSnapshot().hasTag('resumeDialogOpen')).toBe(true);
    actor.send({ type: 'autoRenewal.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(resumeSubscription).not.toHaveBeenCalled();
    expect(rec.calls).toEqual([]);
  });

  it('confirm: resuming ("Processing..."), success toast, then the subscription is refreshed', async () => {
    const resume = deferred<void>();
    const { actor, rec, resumeSubscription, refreshSubscription } = start({ resume: () => resume.promise });
    actor.send({ type: 'autoRenewal.reEnable' });
    actor.send({ type: 'autoRenewal.confirm' });
    expect(actor.getSnapshot().hasTag('resuming')).toBe(true);
    expect(resumeSubscription).toHaveBeenCalledWith({ user });
    resume.resolve();
    await flush();
    expect(rec.of('showToast')).toEqual([
      { title: 'Auto-Renewal On', message: 'Your subscription will renew automatically at the end of your billing period.', color: 'green' },
    ]);
    expect(refreshSubscription).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('a refusal toasts the API\'s text and returns to idle', async () => {
    const { actor, rec } = start({ resume: () => Promise.reject(new Error('No active subscription found.')) });
    actor.send({ type: 'autoRenewal.reEnable' });
    actor.send({ type: 'autoRenewal.confirm' });
    await flush();
    expect(rec.of('showToast')).toEqual([{ title: 'Auto-Renewal Failed', message: 'No active subscription found.', color: 'red' }]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('does nothing without a signed-in user', () => {
    const { actor, resumeSubscription } = start({ user: null });
    actor.send({ type: 'autoRenewal.reEnable' });
    actor.send({ type: 'autoRenewal.confirm' });
    expect(resumeSubscription).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('idle');
  });
});

describe('Cancel and refund', () => {
  it('asks for confirmation; dismissing closes the dialog without a call', () => {
    const { actor, refundSubscription } = start();
    actor.send({ type: 'refund.start' });
    expect(actor.getSnapshot().hasTag('refundDialogOpen')).toBe(true);
    actor.send({ type: 'refund.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(refundSubscription).not.toHaveBeenCalled();
  });

  it('confirm: refunding, success toast, then the subscription is refreshed', async () => {
    const refund = deferred<void>();
    const { actor, rec, refundSubscription, refreshSubscription } = start({ refund: () => refund.promise });
    actor.send({ type: 'refund.start' });
    actor.send({ type: 'refund.confirm' });
    expect(actor.getSnapshot().hasTag('refunding')).toBe(true);
    expect(actor.getSnapshot().hasTag('refundDialogOpen')).toBe(true);
    expect(refundSubscription).toHaveBeenCalledWith({ user });
    refund.resolve();
    await flush();
    expect(rec.of('showToast')).toEqual([
      {
        title: 'Refund Requested',
        message: 'Your subscription has ended and your payment is being refunded. It returns to your card within 5–7 business days.',
        color: 'green',
      },
    ]);
    expect(refreshSubscription).toHaveBeenCalledTimes(1);
  });

  it('a refusal (window closed) toasts the API\'s text; anything else "Please try again"', async () => {
    const closed = 'The 30-day money-back guarantee has ended for this account: it runs for 30 days from your first payment.';
    const { actor, rec } = start({ refund: () => Promise.reject(new Error(closed)) });
    actor.send({ type: 'refund.start' });
    actor.send({ type: 'refund.confirm' });
    await flush();
    expect(rec.of('showToast')).toEqual([{ title: 'Refund Failed', message: closed, color: 'red' }]);
    expect(actor.getSnapshot().value).toBe('idle');

    const second = start({ refund: () => Promise.reject('network down') });
    second.actor.send({ type: 'refund.start' });
    second.actor.send({ type: 'refund.confirm' });
    await flush();
    expect(second.rec.of('showToast')).toEqual([{ title: 'Refund Failed', message: 'Please try again', color: 'red' }]);
  });

  it('does nothing without a signed-in user', () => {
    const { actor, refundSubscription } = start({ user: null });
    actor.send({ type: 'refund.start' });
    actor.send({ type: 'refund.confirm' });
    expect(refundSubscription).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('idle');
  });
});

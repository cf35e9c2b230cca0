/** Danger Zone scenarios (spec §2 Account, §4 "Account actions", §5, §8). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { accountDeletionMachine } from '../../machines/account-deletion';
import type { AccountUser } from '../../machines/types';
import { deferred, flush, recorder } from './harness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const user = { uid: 'uid-1', email: 'ada@example.com' };

function start(options: { user?: AccountUser | null; remove?: () => Promise<void> } = {}) {
  const rec = recorder();
  const order: string[] = [];
  const deleteAccount = vi.fn((_input: { user: AccountUser }) => {
    order.push('deleteAccount');
    return (options.remove ?? (() => Promise.resolve()))();
  });
  const refreshSubscription = vi.fn(() => {
    order.push('refreshSubscription');
    return Promise.resolve();
  });
  const actor = createActor(
    accountDeletionMachine.provide({
      actors: {
        deleteAccount: fromPromise(({ input }) => deleteAccount(input)),
        refreshSubscription: fromPromise(() => refreshSubscription()),
      },
      actions: rec.actions('showToast', 'navigate'),
    }),
    { input: { user: options.user === undefined ? user : options.user } },
  ).start();
  return { actor, rec, deleteAccount, order };
}

describe('Delete Account', () => {
  it('opens the confirmation dialog; Cancel closes it', () => {
    const { actor, deleteAccount } = start();
    actor.send({ type: 'account.delete' });
    expect(actor.getSnapshot().hasTag('dialogOpen')).toBe(true);
    actor.send({ type: 'account.cancelDelete' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(deleteAccount).not.toHaveBeenCalled();
  });

  it('confirm: deleting ("Deleting Account..."), toast, refresh, go to / (then the session ends: the next test)', async () => {
    const removal = deferred<void>();
    const { actor, rec, deleteAccount, order } = start({ remove: () => removal.promise });
    actor.send({ type: 'account.delete' });
    actor.send({ type: 'account.confirmDelete' });
    expect(actor.getSnapshot().hasTag('deleting')).toBe(true);
    expect(deleteAccount).toHaveBeenCalledWith({ user });
    removal.resolve();
    await flush();
    // The stored session is the session machine's to clear, on `session.ended` (issue 33 item 4).
    expect(order).toEqual(['deleteAccount', 'refreshSubscription']);
    expect(rec.calls).toEqual([
      {
        type: 'showToast',
        params: {
          title: 'Account Deleted',
          message: 'Your account and all associated data have been permanently deleted.',
          color: 'green',
        },
      },
      { type: 'navigate', params: { to: '/' } },
    ]);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('after deleting, it navigates to / and only then ends the session (an action, not a timer; issue 24)', async () => {
    const rec = recorder();
    const actor = createActor(
      accountDeletionMachine.provide({
        actors: {
          deleteAccount: fromPromise(() => Promise.resolve()),
          refreshSubscription: fromPromise(() => Promise.resolve()),
        },
        actions: rec.actions('navigate', 'endSession'),
      }),
      { input: { user } },
    ).start();
    actor.send({ type: 'account.delete' });
    actor.send({ type: 'account.confirmDelete' });
    await flush();
    expect(rec.calls.map((call) => call.type)).toEqual(['navigate', 'endSession']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('failure: "Deletion Failed" with the error text, else "Failed to delete account"; the dialog stays', async () => {
    const first = start({ remove: () => Promise.reject(new Error('Session expired')) });
    first.actor.send({ type: 'account.delete' });
    first.actor.send({ type: 'account.confirmDelete' });
    await flush();
    expect(first.rec.calls).toEqual([
      { type: 'showToast', params: { title: 'Deletion Failed', message: 'Session expired', color: 'red' } },
    ]);
    expect(first.actor.getSnapshot().value).toBe('confirming');

    const second = start({ remove: () => Promise.reject(new Error('')) });
    second.actor.send({ type: 'account.delete' });
    second.actor.send({ type: 'account.confirmDelete' });
    await flush();
    expect(second.rec.of('showToast')).toEqual([
      { title: 'Deletion Failed', message: 'Failed to delete account', color: 'red' },
    ]);

    const third = start({ remove: () => Promise.reject(new Error('Not allowed')) });
    third.actor.send({ type: 'account.delete' });
    third.actor.send({ type: 'account.confirmDelete' });
    await flush();
    expect(third.rec.of('showToast')).toEqual([{ title: 'Deletion Failed', message: 'Not allowed', color: 'red' }]);
  });

  it.each([
    ['no email', { uid: 'uid-1', email: '' }],
    ['no uid', { uid: '', email: 'ada@example.com' }],
    ['no user', null],
  ])('does nothing with %s', (_label, who) => {
    const { actor, deleteAccount, rec } = start({ user: who });
    actor.send({ type: 'account.delete' });
    actor.send({ type: 'account.confirmDelete' });
    expect(deleteAccount).not.toHaveBeenCalled();
    expect(rec.calls).toEqual([]);
  });
});

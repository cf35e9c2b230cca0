/** Deep-link decision machine on its own (spec §4 step 5, §9 2000 ms). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { deepLinkMachine } from '../../machines/deep-link';
import type { DeepLinkMachineInput } from '../../machines/deep-link';
import { flush, recorder } from './harness';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function run(input: Partial<DeepLinkMachineInput>, open: () => Promise<void> = () => Promise.resolve()) {
  const rec = recorder();
  const openDesktopApp = vi.fn((_input: { sessionToken: string }) => open());
  const actor = createActor(
    deepLinkMachine.provide({
      actors: { openDesktopApp: fromPromise(({ input: actorInput }) => openDesktopApp(actorInput)) },
      actions: rec.actions('navigate'),
    }),
    {
      input: {
        subscriptionActive: true,
        isDesktop: true,
        mode: 'popup',
        pathname: '/',
        search: '',
        sessionToken: 'session-google',
        ...input,
      },
    },
  ).start();
  return { actor, rec, openDesktopApp };
}

describe('deep-link decision', () => {
  it('active + desktop: opens the desktop app with the session token, then /account after 2000 ms', async () => {
    const { actor, rec, openDesktopApp } = run({});
    expect(actor.getSnapshot().hasTag('openingDesktopApp')).toBe(true);
    await flush();
    expect(openDesktopApp).toHaveBeenCalledWith({ sessionToken: 'session-google' });
    await vi.advanceTimersByTimeAsync(1999);
    expect(rec.of('navigate')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(rec.of('navigate')).toEqual([{ to: '/account' }]);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ outcome: 'desktopApp' });
  });

  it('does not move when already on /account', async () => {
    const { actor, rec } = run({ pathname: '/account' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(rec.of('navigate')).toEqual([]);
    expect(actor.getSnapshot().output).toEqual({ outcome: 'desktopApp' });
  });

  it.each([
    ['/success', ''],
    ['/subscribe', ''],
    ['/', '?openapp=true'],
  ])('redirect sign-in on %s%s opens the link', async (pathname, search) => {
    const { openDesktopApp } = run({ mode: 'redirect', pathname, search });
    await flush();
    expect(openDesktopApp).toHaveBeenCalledTimes(1);
  });

  it('redirect sign-in elsewhere goes to /account', () => {
    const { actor, rec, openDesktopApp } = run({ mode: 'redirect', pathname: '/signin' });
    expect(openDesktopApp).not.toHaveBeenCalled();
    expect(rec.of('navigate')).toEqual([{ to: '/account' }]);
    expect(actor.getSnapshot().output).toEqual({ outcome: 'account' });
  });

  it('active + not desktop goes to /account; not active goes to /subscribe', () => {
    expect(run({ isDesktop: false }).rec.of('navigate')).toEqual([{ to: '/account' }]);
    const notActive = run({ subscriptionActive: false });
    expect(notActive.rec.of('navigate')).toEqual([{ to: '/subscribe' }]);
    expect(notActive.actor.getSnapshot().output).toEqual({ outcome: 'subscribe' });
    expect(notActive.openDesktopApp).not.toHaveBeenCalled();
  });

  it('a failed hand-off goes to /account at once', async () => {
    const { rec, actor } = run({}, () => Promise.reject(new Error('No hand-off token')));
    await flush();
    expect(rec.of('navigate')).toEqual([{ to: '/account' }]);
    expect(actor.getSnapshot().output).toEqual({ outcome: 'account' });
  });
});

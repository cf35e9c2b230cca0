import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { APP_LINK_FALLBACK_MS, appLinkMachine } from '../../machines/app-link';

function start(open: () => Promise<void> = async () => {}) {
  const actor = createActor(appLinkMachine.provide({ actors: { openAppLink: fromPromise(open) } }));
  actor.start();
  return actor;
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('opening the app through its link (issue 22 item 2)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says it is opening, then offers the download when the page is still in front after 1.5 s', async () => {
    const actor = start();
    actor.send({ type: 'appLink.open' });
    expect(actor.getSnapshot().hasTag('opening')).toBe(true);
    await flush();
    expect(actor.getSnapshot().hasTag('opening')).toBe(true);
    await vi.advanceTimersByTimeAsync(APP_LINK_FALLBACK_MS);
    expect(actor.getSnapshot().hasTag('notOpened')).toBe(true);
    // Try again opens the link again.
    actor.send({ type: 'appLink.open' });
    expect(actor.getSnapshot().hasTag('opening')).toBe(true);
  });

  it('says nothing more once the app took the page over', async () => {
    const actor = start();
    actor.send({ type: 'appLink.open' });
    await flush();
    actor.send({ type: 'page.hidden' });
    await vi.advanceTimersByTimeAsync(APP_LINK_FALLBACK_MS);
    expect(actor.getSnapshot().value).toBe('opened');
    expect(actor.getSnapshot().hasTag('notOpened')).toBe(false);
  });

  it('a link that could not be made (hand-off refused) leaves nothing spinning', async () => {
    const actor = start(() => Promise.reject(new Error('offline')));
    actor.send({ type: 'appLink.open' });
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('after a desktop sign-in opened the link elsewhere, /account can start at "did not open"', () => {
    const actor = start();
    actor.send({ type: 'appLink.notOpened' });
    expect(actor.getSnapshot().hasTag('notOpened')).toBe(true);
  });
});

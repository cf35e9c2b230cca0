/**
 * A WireGuard device's removal is confirmed, not assumed (issue 47 item 2): every second the machine asks
 * whether every VPN server has applied the removal's version; confirmed, it says "Removed from every server";
 * not within 5 s, it names the servers that lag by city, asks every 5 s, says so once they have, and stops
 * asking after a minute. Fixture answers, fake timers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { REMOVED_EVERYWHERE_TOAST, removalConfirmationMachine, serverNames, stillWaitingToast, type RemovalCheck } from '../../machines/removal-confirmation';

function start(answers: Array<RemovalCheck | Error>) {
  const showToast = vi.fn();
  const checkRemoval = vi.fn(async ({ version }: { version: number }) => {
    void version;
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer instanceof Error) throw answer;
    return answer;
  });
  const actor = createActor(
    removalConfirmationMachine.provide({
      actors: { checkRemoval: fromPromise(({ input }: { input: { version: number } }) => checkRemoval(input)) },
      actions: { showToast: (_, params) => showToast(params) },
    }),
    { input: {} },
  ).start();
  return { actor, showToast, checkRemoval };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const lagos = { confirmed: false, lagging: ['Lagos, Nigeria'] };

describe('removal confirmation', () => {
  it('confirmed at once (the local default: no server has a relay token): "Removed from every server", and no more asking', async () => {
    const { actor, showToast, checkRemoval } = start([{ confirmed: true, lagging: [] }]);
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'removal.check', version: 42 });
    await vi.advanceTimersByTimeAsync(0);
    expect(checkRemoval).toHaveBeenCalledWith({ version: 42 });
    expect(showToast).toHaveBeenCalledExactlyOnceWith(REMOVED_EVERYWHERE_TOAST);
    expect(REMOVED_EVERYWHERE_TOAST.message).toBe('Removed from every server.');
    expect(actor.getSnapshot().value).toBe('idle');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(checkRemoval).toHaveBeenCalledTimes(1);
  });

  it('confirmed within the first seconds: asked every second, one toast, no warning', async () => {
    const { actor, showToast, checkRemoval } = start([lagos, lagos, { confirmed: true, lagging: [] }]);
    actor.send({ type: 'removal.check', version: 7 });
    await vi.advanceTimersByTimeAsync(0);
    expect(showToast).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(checkRemoval).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(checkRemoval).toHaveBeenCalledTimes(3);
    expect(showToast).toHaveBeenCalledExactlyOnceWith(REMOVED_EVERYWHERE_TOAST);
  });

  it('a server that lags after 5 s is named by city; asking goes on every 5 s and says so once it has applied it', async () => {
    const answers: Array<RemovalCheck | Error> = [lagos, lagos, new Error('offline'), lagos, lagos, lagos, lagos, { confirmed: true, lagging: [] }];
    const { actor, showToast, checkRemoval } = start(answers);
    actor.send({ type: 'removal.check', version: 7 });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(showToast).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches('lagging')).toBe(true);
    expect(showToast).toHaveBeenCalledExactlyOnceWith({ title: 'Device removed', message: 'Still waiting for Lagos, Nigeria to apply the removal.', color: 'yellow' });
    const asked = checkRemoval.mock.calls.length;
    await vi.advanceTimersByTimeAsync(4_999);
    expect(checkRemoval).toHaveBeenCalledTimes(asked);
    await vi.advanceTimersByTimeAsync(1);
    expect(checkRemoval).toHaveBeenCalledTimes(asked + 1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(showToast).toHaveBeenLastCalledWith(REMOVED_EVERYWHERE_TOAST);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('stops asking after a minute when a server never applies it', async () => {
    const { actor, checkRemoval, showToast } = start([lagos]);
    actor.send({ type: 'removal.check', version: 7 });
    await vi.advanceTimersByTimeAsync(5_000 + 60_000);
    expect(actor.getSnapshot().value).toBe('idle');
    const asked = checkRemoval.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(checkRemoval).toHaveBeenCalledTimes(asked);
    expect(showToast).toHaveBeenCalledTimes(1);
  });

  it('a later removal supersedes: its version is the one asked about', async () => {
    const { actor, checkRemoval } = start([lagos]);
    actor.send({ type: 'removal.check', version: 7 });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'removal.check', version: 9 });
    await vi.advanceTimersByTimeAsync(0);
    expect(checkRemoval).toHaveBeenLastCalledWith({ version: 9 });
  });

  it('names one or two lagging servers, counts more; an unknown id stands for itself; no names, no guess', () => {
    const servers = [
      { id: 'ng-lagos-1', city: 'Lagos', countryName: 'Nigeria' },
      { id: 'us-nyc-1', city: 'New York', countryName: 'United States' },
    ];
    expect(serverNames(['us-nyc-1', 'ng-lagos-1', 'xx-1'], servers)).toEqual(['New York, United States', 'Lagos, Nigeria', 'xx-1']);
    expect(stillWaitingToast(['New York, United States', 'Lagos, Nigeria']).message).toBe('Still waiting for New York, United States and Lagos, Nigeria to apply the removal.');
    expect(stillWaitingToast(['New York, United States', 'Lagos, Nigeria', 'xx-1']).message).toBe('Still waiting for 3 servers to apply the removal.');
    expect(stillWaitingToast([]).message).toBe('Not every server has confirmed the removal yet.');
  });
});

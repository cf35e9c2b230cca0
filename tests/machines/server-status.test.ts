import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ServersStatusAnswer } from '../../contract/relay';
import { STATUS_REFRESH_MS, STATUS_RETRY_MS, serverStatusMachine, type ServerStatusInput, type ServerStatusReading } from '../../machines/server-status';

const answer = (updatedAt: string): ServersStatusAnswer => ({ servers: [], updatedAt });

function start(answers: Array<ServersStatusAnswer | Error>, input: ServerStatusInput = {}) {
  const fetchStatus = vi.fn(async (): Promise<ServerStatusReading> => {
    const next = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (next instanceof Error) throw next;
    return { status: next, receivedAt: Date.now() };
  });
  const actor = createActor(serverStatusMachine.provide({ actors: { fetchServerStatus: fromPromise(fetchStatus) } }), { input });
  actor.start();
  return { actor, fetchStatus };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('server status (/status)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it(`fetches on open, then again every ${STATUS_REFRESH_MS / 1000} s`, async () => {
    const { actor, fetchStatus } = start([answer('t1'), answer('t2')]);
    await flush();
    expect(actor.getSnapshot().value).toBe('shown');
    expect(actor.getSnapshot().context.status?.updatedAt).toBe('t1');
    await vi.advanceTimersByTimeAsync(STATUS_REFRESH_MS - 1);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.status?.updatedAt).toBe('t2');
  });

  it(`keeps the last figures through a failure and retries after ${STATUS_RETRY_MS / 1000} s`, async () => {
    const { actor, fetchStatus } = start([answer('t1'), new Error('offline'), answer('t3')]);
    await flush();
    await vi.advanceTimersByTimeAsync(STATUS_REFRESH_MS);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context).toMatchObject({ status: answer('t1'), failed: true });
    await vi.advanceTimersByTimeAsync(STATUS_RETRY_MS);
    expect(fetchStatus).toHaveBeenCalledTimes(3);
    expect(actor.getSnapshot().context).toMatchObject({ status: answer('t3'), receivedAt: Date.now(), failed: false });
  });

  it("opens on the page's first figures: shows them and fetches next when they are due for a refresh", async () => {
    const { actor, fetchStatus } = start([answer('t2')], { first: { outcome: 'received', reading: { status: answer('t1'), receivedAt: 1_000 } } });
    expect(actor.getSnapshot().value).toBe('shown');
    expect(actor.getSnapshot().context).toEqual({ status: answer('t1'), receivedAt: 1_000, failed: false });
    await vi.advanceTimersByTimeAsync(STATUS_REFRESH_MS - 1);
    expect(fetchStatus).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.status?.updatedAt).toBe('t2');
  });

  it("opens on the page's failed first fetch: says so and retries after the retry delay", async () => {
    const { actor, fetchStatus } = start([answer('t1')], { first: { outcome: 'failed' } });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context).toEqual({ status: null, receivedAt: null, failed: true });
    await vi.advanceTimersByTimeAsync(STATUS_RETRY_MS - 1);
    expect(fetchStatus).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('shown');
  });

  it('retries a first fetch that failed, with nothing to show meanwhile', async () => {
    const { actor } = start([new Error('offline'), answer('t1')]);
    await flush();
    expect(actor.getSnapshot().context).toEqual({ status: null, receivedAt: null, failed: true });
    await vi.advanceTimersByTimeAsync(STATUS_RETRY_MS);
    expect(actor.getSnapshot().value).toBe('shown');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Subscription } from '../../contract/api';
import { ACTIVATION_MAX_CHECKS, ACTIVATION_POLL_MS, activationMachine } from '../../machines/activation';

const active: Subscription = { status: 'active', cancelAtPeriodEnd: false, endDate: '2027-11-23T00:00:00.000Z' };
const inactive: Subscription = { status: 'inactive', cancelAtPeriodEnd: false };

function start(answers: Array<Subscription | null | Error>) {
  const check = vi.fn(async (): Promise<Subscription | null> => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer instanceof Error) throw answer;
    return answer;
  });
  const actor = createActor(activationMachine.provide({ actors: { checkSubscription: fromPromise(check) } }), { input: {} });
  actor.start();
  return { actor, check };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('activation after payment', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is done as soon as the subscription is active', async () => {
    const { actor, check } = start([active]);
    await flush();
    expect(actor.getSnapshot().value).toBe('active');
    expect(actor.getSnapshot().status).toBe('done');
    expect(check).toHaveBeenCalledTimes(1);
  });

  it(`checks again every ${ACTIVATION_POLL_MS} ms until the webhook has made it active`, async () => {
    const { actor, check } = start([null, inactive, new Error('offline'), active]);
    await flush();
    expect(actor.getSnapshot().hasTag('activating')).toBe(true);
    await vi.advanceTimersByTimeAsync(ACTIVATION_POLL_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2 * ACTIVATION_POLL_MS);
    expect(check).toHaveBeenCalledTimes(4);
    expect(actor.getSnapshot().value).toBe('active');
  });

  it(`gives up after ${ACTIVATION_MAX_CHECKS} checks, and a retry starts a new round`, async () => {
    const { actor, check } = start([inactive]);
    await vi.advanceTimersByTimeAsync(ACTIVATION_MAX_CHECKS * ACTIVATION_POLL_MS + 10);
    expect(check).toHaveBeenCalledTimes(ACTIVATION_MAX_CHECKS);
    expect(actor.getSnapshot().value).toBe('timedOut');
    expect(actor.getSnapshot().hasTag('activating')).toBe(false);
    actor.send({ type: 'activation.retry' });
    expect(actor.getSnapshot().context.checks).toBe(1);
    await flush();
    expect(check).toHaveBeenCalledTimes(ACTIVATION_MAX_CHECKS + 1);
    expect(actor.getSnapshot().value).toBe('waiting');
  });
});

/**
 * The job queue (server/jobs/queue.ts) on both drivers: a job exists exactly when the transaction that
 * owes it commits, a key names one job however often it is sent, a failing job is retried until it
 * succeeds, and a job that fails for good is reported, never dropped silently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobQueue, type Attempt, type JobQueue } from '../../server/jobs/queue';
import { describeDatabase } from '../support/describe-api';
import { until } from '../support/until';

describeDatabase('job queue', (database) => {
  let queue: JobQueue;
  const failures: Array<{ name: string; final: boolean }> = [];

  beforeAll(async () => {
    queue = await startJobQueue(database, {
      pollSeconds: 0.5,
      events: { failed: (name, _error, _attempt, final) => failures.push({ name, final }) },
    });
  });
  // Before the harness closes the database (after-hooks run last registered first).
  afterAll(() => queue?.stop());

  /** Declares queue `name` and works it by collecting each job's `what`, in the order the jobs ran. */
  async function collected(name: string): Promise<string[]> {
    await queue.declare(name);
    const seen: string[] = [];
    await queue.work<{ what: string }>(name, async (data) => {
      seen.push(data.what);
    });
    return seen;
  }

  it('runs a job sent in a committed transaction once, however often its key is sent', async () => {
    const seen = await collected('test-once');
    const first = await database.db.transaction((tx) => queue.send(tx, 'test-once', { what: 'a' }, 'thing-1'));
    const again = await queue.send(database.db, 'test-once', { what: 'b' }, 'thing-1');
    expect([first, again]).toEqual([true, false]);
    await until(() => (seen.length ? seen : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(seen).toEqual(['a']);
  });

  it("answers an account's completed jobs, newest first, without the caller naming the queue's tables (issue 49, item 2)", async () => {
    const seen = await collected('test-done');
    await queue.send(database.db, 'test-done', { what: 'first', userId: 'usr_done', kind: 'receipt' }, 'd-1');
    await until(() => (seen.length === 1 ? seen : undefined));
    await queue.send(database.db, 'test-done', { what: 'second', userId: 'usr_done', kind: 'new_device' }, 'd-2');
    await queue.send(database.db, 'test-done', { what: 'other', userId: 'usr_other', kind: 'receipt' }, 'd-3');
    await until(() => (seen.length === 3 ? seen : undefined));
    const done = await until(async () => {
      const jobs = await queue.completedJobsOf(database.db, 'test-done', 'usr_done', 50);
      return jobs.length === 2 ? jobs : undefined;
    });
    expect(done.map((job) => job.data['kind'])).toEqual(['new_device', 'receipt']);
    expect(done.every((job) => job.completedAt instanceof Date && !Number.isNaN(job.completedAt.getTime()))).toBe(true);
    expect(await queue.completedJobsOf(database.db, 'test-done', 'usr_done', 1)).toHaveLength(1);
  });

  it('drops the job of a transaction that rolls back', async () => {
    const seen = await collected('test-rollback');
    await expect(
      database.db.transaction(async (tx) => {
        await queue.send(tx, 'test-rollback', { what: 'rolled back' }, 'r-1');
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    await queue.send(database.db, 'test-rollback', { what: 'committed' }, 'r-2');
    await until(() => (seen.length ? seen : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(seen).toEqual(['committed']);
  });

  it('retries a failing job until it succeeds, and reports one that fails for good', async () => {
    await queue.declare('test-flaky', { retryLimit: 3, retryDelaySeconds: 1, retryDelayMaxSeconds: 1 });
    await queue.declare('test-broken', { retryLimit: 1, retryDelaySeconds: 1, retryDelayMaxSeconds: 1 });
    const attempts: Attempt[] = [];
    await queue.work('test-flaky', async (_data, attempt) => {
      attempts.push(attempt);
      if (attempt.retryCount < 2) throw new Error('provider down');
    });
    await queue.work('test-broken', async () => {
      throw new Error('never works');
    });
    await queue.send(database.db, 'test-flaky', {}, 'f-1');
    await queue.send(database.db, 'test-broken', {}, 'b-1');
    await until(() => (attempts.length === 3 ? attempts : undefined), 30_000);
    expect(attempts.map((each) => each.retryCount)).toEqual([0, 1, 2]);
    const final = await until(() => failures.find((each) => each.name === 'test-broken' && each.final), 30_000);
    expect(final).toEqual({ name: 'test-broken', final: true });
    expect(failures.filter((each) => each.name === 'test-flaky').every((each) => !each.final)).toBe(true);
    expect(await queue.ready()).toBe(true);
  });

  describe('wakes its workers instead of waiting for their next poll (LISTEN/NOTIFY, issue 50)', () => {
    // Polls 30 s apart: a job this queue runs within seconds was woken, not found by a poll.
    let woken: JobQueue;
    beforeAll(async () => {
      woken = await startJobQueue(database, { pollSeconds: 30, backstopSeconds: 30 });
    });
    afterAll(() => woken?.stop());
    const notifyOf = async (name: string) =>
      (await database.statement(`queue_notify_${name.replace(/-/g, '_')}`, `SELECT notify FROM "${database.jobSchema}".queue WHERE name = $1`)([name]))[0]?.[0];
    const afterFirstLook = () => new Promise((resolve) => setTimeout(resolve, 1000));

    it('a job starts as soon as the transaction that sent it commits, also on a queue an earlier release made', async () => {
      await woken.declare('test-woken');
      // As a queue made before the wake-up was: declaring it again turns it on.
      await database.exec(`UPDATE "${database.jobSchema}".queue SET notify = false WHERE name = 'test-woken'`);
      await woken.declare('test-woken');
      expect(await notifyOf('test-woken')).toBe(true);

      const started: number[] = [];
      await woken.work('test-woken', async () => {
        started.push(Date.now());
      });
      await afterFirstLook();
      const sentAt = Date.now();
      await database.db.transaction((tx) => woken.send(tx, 'test-woken', {}, 'w-1'));
      await until(() => (started.length ? started : undefined), 20_000);
      expect(started[0]! - sentAt).toBeLessThan(10_000);
    });

    it('a failed job is retried when its retry falls due, not at the next poll', async () => {
      await woken.declare('test-woken-retry', { retryLimit: 1, retryDelaySeconds: 1, retryDelayMaxSeconds: 1 });
      const attempts: number[] = [];
      await woken.work('test-woken-retry', async () => {
        attempts.push(Date.now());
        if (attempts.length === 1) throw new Error('provider down');
      });
      await afterFirstLook();
      await woken.send(database.db, 'test-woken-retry', {}, 'wr-1');
      await until(() => (attempts.length === 2 ? attempts : undefined), 20_000);
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(1000);
      expect(attempts[1]! - attempts[0]!).toBeLessThan(10_000);
    });
  });

  it('stores a failed job\'s output redacted: a mail server\'s refusal keeps no address (issue 31, item 3)', async () => {
    await queue.declare('test-refused', { retryLimit: 0, retryDelaySeconds: 1, retryDelayMaxSeconds: 1 });
    await queue.work('test-refused', async () => {
      throw new Error('550 5.1.1 <ada.refused@example.com>: Recipient address rejected (from 198.51.100.7)');
    });
    await queue.send(database.db, 'test-refused', {}, 'refused-1');
    await until(() => failures.find((each) => each.name === 'test-refused' && each.final), 30_000);
    const read = database.statement('refused_output', `SELECT output::text FROM "${database.jobSchema}".job WHERE name = $1 AND output IS NOT NULL`);
    let output = '';
    for (let tries = 0; tries < 50 && !output; tries += 1) {
      output = String((await read(['test-refused']))[0]?.[0] ?? '');
      if (!output) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(output).toContain('Recipient address rejected');
    expect(output).toContain('[email]');
    expect(output).not.toContain('ada.refused@example.com');
    expect(output).not.toContain('198.51.100.7');
  });
});

/**
 * The job queue (design §2, §7b): pg-boss in the same database as everything else, on PostgreSQL or on
 * PGlite. Every piece of work that must happen exactly once and may fail (a provider call a webhook owes,
 * an e-mail, the daily renewal sweep) is a job: enqueued in the transaction that owes it, keyed by what it
 * is about so it is never done twice, retried with backoff, and logged and counted when it finally fails.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgBoss, fromDrizzle, type Job } from 'pg-boss';
import type { Database } from '../db/database.ts';
import type { JobSender } from '../domain/jobs.ts';
import type { Db } from '../domain/store.ts';
import { redactedErrorObject } from '../observability/redaction.ts';

export interface RetryPolicy {
  /** Attempts after the first. */
  retryLimit: number;
  /** The first retry's delay; each later one doubles (with jitter) up to `retryDelayMaxSeconds`. */
  retryDelaySeconds: number;
  retryDelayMaxSeconds: number;
}

/** About a day of retries: long enough to ride out a provider's or a mail server's bad day. */
const DEFAULT_RETRY_POLICY: RetryPolicy = { retryLimit: 12, retryDelaySeconds: 10, retryDelayMaxSeconds: 3 * 3600 };

export interface Attempt {
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** No retry follows if this attempt throws. */
  lastAttempt: boolean;
}

type JobHandler<T> = (data: T, attempt: Attempt) => Promise<void>;

interface JobQueueEvents {
  /** A job was enqueued (not a duplicate). */
  queued?: (name: string) => void;
  /** An attempt threw; `final` when no retry follows (the job is failed for good and must be looked at). */
  failed?: (name: string, error: unknown, attempt: Attempt, final: boolean) => void;
}

export interface JobQueue extends JobSender {
  /** Creates queue `name` (idempotent) with its retry policy; a job can only be sent to a declared queue. */
  declare(name: string, policy?: Partial<RetryPolicy>): Promise<void>;
  /** Runs `handler` for each job of a declared queue on this instance (every instance may work every queue). */
  work<T extends object>(name: string, handler: JobHandler<T>): Promise<void>;
  /**
   * Deletes job `id` with its stored data and output, whatever its state: a job whose data holds what must
   * not outlive its sending (an address kept for an account already deleted) is forgotten once done.
   */
  forget(id: string): Promise<void>;
  /** A job sent by cron (UTC) to a declared queue, once per occurrence whatever the instance count. */
  schedule(name: string, cron: string, data?: object): Promise<void>;
  /** The queue's storage answers (readiness). */
  ready(): Promise<boolean>;
  /** Stops fetching and waits (a bounded time) for the jobs in hand. */
  stop(): Promise<void>;
}

export interface JobQueueOptions {
  /** How often an idle worker looks for jobs when the database's notifications cannot be heard. */
  pollSeconds?: number;
  /**
   * How often it looks while they are heard. A job sent to run now wakes every worker of its queue when its
   * transaction commits (LISTEN/NOTIFY), so this poll finds only what no notification announces: a retry or
   * a delayed job falling due, or a job sent while the listener was reconnecting. At least `pollSeconds`.
   */
  backstopSeconds?: number;
  events?: JobQueueEvents;
}

/** The rows a raw statement answered (PGlite and node-postgres shape them differently). */
const rowsOf = (result: unknown): unknown[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);

/** A job id derived from what the job is about, so the same key always names the same job. */
function jobIdFor(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  // Shaped as a version-5-style UUID (pg-boss's id column is a uuid).
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * When the retry of a failed attempt falls due at the latest, in seconds from the failure: pg-boss draws
 * it between one and two times the delay (which doubles with each retry), capped at the policy's maximum.
 */
function latestRetrySeconds(policy: RetryPolicy, retryCount: number): number {
  return Math.min(policy.retryDelayMaxSeconds, Math.max(policy.retryDelaySeconds, 1) * 2 ** Math.min(16, retryCount + 1));
}

export async function startJobQueue(database: Database, options: JobQueueOptions = {}): Promise<JobQueue> {
  const { pollSeconds = 1, backstopSeconds = 10, events = {} } = options;
  const boss = new PgBoss({
    db: database.jobStore,
    schema: database.jobSchema,
    // Workers woken by the sending transaction's commit, not by a poll every second: a job starts at once, and
    // an idle queue costs the database a query every `backstopSeconds` per queue, not every second (issue 50).
    useListenNotify: true,
    // On PostgreSQL the schema is made beforehand (by the migrations, or by the owner for an API role with no
    // right to create one: server/db/api-role.sql, issue 46, item 11); CREATE SCHEMA IF NOT EXISTS would need it.
    ...(database.driver === 'pglite' ? { backend: 'pglite' as const } : { createSchema: false }),
  });
  // pg-boss reports its own trouble (a lost connection, a slow query) as events; an unheard 'error' would
  // end the process.
  boss.on('error', () => {});
  await boss.start();
  // Each declared queue's retry policy: a failed attempt's worker wakes itself when its retry falls due.
  const declared = new Map<string, RetryPolicy>();
  const retryWakeUps = new Set<NodeJS.Timeout>();
  const wakeWhenRetryIsDue = (workerId: string, policy: RetryPolicy, attempt: Attempt) => {
    // Half a second after it is due at the latest: pg-boss writes the failure, and so the retry's time, only
    // after the handler has thrown.
    const wakeUp = setTimeout(() => {
      retryWakeUps.delete(wakeUp);
      boss.notifyWorker(workerId);
    }, latestRetrySeconds(policy, attempt.retryCount) * 1000 + 500);
    wakeUp.unref();
    retryWakeUps.add(wakeUp);
  };

  return {
    async declare(name, policy = {}) {
      const { retryLimit, retryDelaySeconds, retryDelayMaxSeconds } = { ...DEFAULT_RETRY_POLICY, ...policy };
      const queueOptions = { retryLimit, retryDelay: retryDelaySeconds, retryBackoff: true, retryDelayMax: retryDelayMaxSeconds, notify: true };
      await boss.createQueue(name, queueOptions);
      // createQueue leaves a queue that exists as it was: one made by an earlier release (before `notify`,
      // or with another retry policy) is brought up to what this release declares.
      await boss.updateQueue(name, queueOptions);
      declared.set(name, { retryLimit, retryDelaySeconds, retryDelayMaxSeconds });
    },

    async send(tx: Db, name, data, key, sendOptions = {}) {
      if (!declared.has(name)) throw new Error(`job queue ${name} was never declared`);
      const id = await boss.send(name, data, {
        id: jobIdFor(`${name}:${key}`),
        ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
        db: fromDrizzle(tx as never, sql as never),
      });
      if (id) events.queued?.(name);
      return id !== null;
    },

    async work<T extends object>(name: string, handler: JobHandler<T>) {
      const policy = declared.get(name);
      // Known once pg-boss answers; its first fetch may already have run a job by then.
      let workerId: string | undefined;
      workerId = await boss.work<T>(name, { pollingIntervalSeconds: pollSeconds, notifyPollingIntervalSeconds: Math.max(backstopSeconds, pollSeconds), batchSize: 1, includeMetadata: true }, async (jobs) => {
        // A worker that found a job looks again at once, not after the backstop: the queue may hold more, and
        // the notifications of several jobs sent while it was fetching woke it only once.
        if (workerId) boss.notifyWorker(workerId);
        for (const job of jobs as Array<Job<T> & { retryCount: number; retryLimit: number }>) {
          const attempt: Attempt = { id: job.id, retryCount: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit };
          try {
            await handler(job.data, attempt);
          } catch (error) {
            events.failed?.(name, error, attempt, attempt.lastAttempt);
            // No notification announces a retry: without this, it would wait for the backstop poll too.
            if (policy && workerId && !attempt.lastAttempt) wakeWhenRetryIsDue(workerId, policy, attempt);
            // pg-boss stores what is thrown as the job's output: redacted, as a log line is (a mail
            // server's refusal names the recipient's address).
            throw redactedErrorObject(error);
          }
        }
      });
    },

    async forgetAccountJobs(tx: Db, name, userId) {
      const job = sql`${sql.identifier(database.jobSchema)}.job`;
      const result = await (tx as Database['db']).execute(
        sql`delete from ${job} where name = ${name} and state in ('created', 'retry', 'completed', 'failed', 'cancelled') and data->>'userId' = ${userId} returning id`,
      );
      // A job running now finishes with what it read; its row keeps only its kind (issue 46, item 12), and
      // the worker deletes it when it ends. pg-boss's completion writes the state and output, not the data.
      const running = await (tx as Database['db']).execute(
        sql`update ${job} set data = jsonb_build_object('kind', data->'kind', 'accountGone', true) where name = ${name} and state = 'active' and data->>'userId' = ${userId} returning id`,
      );
      return rowsOf(result).length + rowsOf(running).length;
    },

    async forgetFinishedJobs(tx: Db, name, field, values) {
      if (values.length === 0) return 0;
      const result = await (tx as Database['db']).execute(
        sql`delete from ${sql.identifier(database.jobSchema)}.job where name = ${name} and state in ('completed', 'failed', 'cancelled') and data->>${field} in ${sql`(${sql.join(values.map((value) => sql`${value}`), sql`, `)})`} returning id`,
      );
      return rowsOf(result).length;
    },

    async readdressOwed(tx: Db, name, userId, kinds, readdress) {
      const job = sql`${sql.identifier(database.jobSchema)}.job`;
      const owed = rowsOf(
        await (tx as Database['db']).execute(
          sql`select id from ${job} where name = ${name} and state in ('created', 'retry') and data->>'userId' = ${userId} and data->>'kind' in ${sql`(${sql.join(kinds.map((kind) => sql`${kind}`), sql`, `)})`} for update`,
        ),
      ) as Array<{ id: string }>;
      for (const { id } of owed) {
        const recipient = JSON.stringify(await readdress());
        await (tx as Database['db']).execute(sql`update ${job} set data = (data - 'userId') || ${recipient}::jsonb where name = ${name} and id = ${id}`);
      }
      return owed.length;
    },

    async completedJobsOf(db: Db, name, userId, limit) {
      const result = await (db as Database['db']).execute(
        sql`select data, completed_on from ${sql.identifier(database.jobSchema)}.job
            where name = ${name} and state = 'completed' and data->>'userId' = ${userId}
            order by completed_on desc limit ${limit}`,
      );
      return (rowsOf(result) as Array<{ data: Record<string, unknown>; completed_on: Date | string }>).map((row) => ({ data: row.data, completedAt: new Date(row.completed_on) }));
    },

    async forget(id) {
      await database.jobStore.executeSql(`delete from "${database.jobSchema}".job where id = $1`, [id]);
    },

    async schedule(name, cron, data = {}) {
      await boss.schedule(name, cron, data, { tz: 'UTC' });
    },

    async ready() {
      try {
        await database.jobStore.executeSql('select 1');
        return true;
      } catch {
        return false;
      }
    },

    async stop() {
      for (const wakeUp of retryWakeUps) clearTimeout(wakeUp);
      await boss.stop({ graceful: true, timeout: 5000 });
    },
  };
}

/**
 * The daily sweep for renewal reminders and plan-end notices (server/domain/billing/renewal-notices.ts) as a
 * pg-boss schedule: one run a day whatever the number of instances. The local checkout's billing clock
 * also runs it each time it moves (npm run billing:advance), through `sweepNow`.
 */
import { PLAN } from '../../contract/plans.ts';
import { oweRenewalNotices } from '../domain/billing/renewal-notices.ts';
import type { Db } from '../domain/store.ts';
import type { JobQueue } from '../jobs/queue.ts';

const SWEEP_QUEUE = 'renewal-notices';
/** 08:00 UTC: morning in Europe, the night before in the Americas; either way before a renewal that day. */
const DAILY = '0 8 * * *';

export interface RenewalSweep {
  /** Runs the sweep at `now` (the billing clock's time). */
  sweepNow(now: Date): Promise<number>;
}

export async function startRenewalSweep(jobs: JobQueue, db: Db, clockNow: () => Promise<Date>): Promise<RenewalSweep> {
  const sweepNow = (now: Date) => oweRenewalNotices(db, jobs, now, PLAN);
  await jobs.declare(SWEEP_QUEUE, { retryLimit: 3 });
  await jobs.work(SWEEP_QUEUE, async () => {
    await sweepNow(await clockNow());
  });
  await jobs.schedule(SWEEP_QUEUE, DAILY);
  return { sweepNow };
}

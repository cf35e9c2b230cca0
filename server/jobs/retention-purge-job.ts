/**
 * The daily clean-up of expired data (server/domain/privacy/retention-purge.ts) as a pg-boss schedule: one run a
 * day whatever the number of instances, and one at start-up (data that expired while the API was down).
 */
import type { FastifyBaseLogger } from 'fastify';
import { purgeExpiredData } from '../domain/privacy/retention-purge.ts';
import type { Db } from '../domain/store.ts';
import type { JobQueue } from './queue.ts';

export const RETENTION_PURGE_QUEUE = 'retention-purge';
/** 03:30 UTC, away from the 08:00 renewal sweep. */
const DAILY = '30 3 * * *';

export async function startRetentionPurge(jobs: JobQueue, db: Db, cooldownSeconds: number, log: FastifyBaseLogger): Promise<void> {
  const purge = async () => {
    const counts = await purgeExpiredData(db, cooldownSeconds);
    log.info({ purged: counts }, 'expired data purged');
  };
  await jobs.declare(RETENTION_PURGE_QUEUE, { retryLimit: 3 });
  await jobs.work(RETENTION_PURGE_QUEUE, purge);
  await jobs.schedule(RETENTION_PURGE_QUEUE, DAILY);
  await purge();
}

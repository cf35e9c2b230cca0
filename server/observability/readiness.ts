/**
 * GET /api/ready (issue 23): whether this instance can do its work, naming each dependency. Each check is
 * bounded, so a stalled dependency answers "down" within seconds rather than holding the probe.
 */
import type { ReadyResponse } from '../../contract/api.ts';
import type { Database } from '../domain/store.ts';
import type { JobQueue } from '../jobs/queue.ts';

/** Whether the rate-limit counts are shared through Redis right now; null without REDIS_URL. */
interface SharedCounts {
  sharedInRedis(): Promise<boolean | null>;
}

const CHECK_TIMEOUT_MS = 3000;

async function within(check: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness({ database, jobs, limits }: { database: Database; jobs: Pick<JobQueue, 'ready'>; limits: SharedCounts }): Promise<ReadyResponse> {
  // Redis: whether the rate-limit counts are shared right now (null: not configured, counted per process).
  const [databaseUp, jobsUp, redis] = await Promise.all([
    within(() => database.ping()),
    within(() => jobs.ready()),
    limits.sharedInRedis().catch(() => false),
  ]);
  return { ok: databaseUp && jobsUp && redis !== false, database: databaseUp, redis, jobs: jobsUp };
}

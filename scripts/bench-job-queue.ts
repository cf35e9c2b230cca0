/**
 * `npm run bench:queue`: what an idle job queue costs (issue 50). An API's queue sits idle most of the time,
 * in production and in every test API, and what it spends then is its workers' polling and pg-boss's own
 * timers. This starts the queue on an in-memory PGlite with as many worked queues as the API declares, lets
 * it settle, then reads this process's CPU over several idle windows and prints each, their median and the
 * machine's load average. Nothing is sent: only the idle cost is measured.
 *
 * Run it on two commits one after the other (the machine's speed moves within minutes here) and compare the
 * medians. docs/performance.md ("The job queue woken by its commits") has the figures.
 *
 * Usage: npm run bench:queue
 *   BENCH_POLL_SECONDS=1 (the product's default; the test APIs use 0.5), BENCH_WINDOW_SECONDS=15, BENCH_ROUNDS=3
 */
import { openDatabase } from '../server/db/database.ts';
import { startJobQueue } from '../server/jobs/queue.ts';
import { loadAverage, median } from './lib/bench-figures.ts';

const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 1);
const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 15);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
// As many as the API works (server/workers.ts): mail, refunds, renewal turned off at the provider, the renewal
// sweep and the retention purge.
const QUEUES = ['bench-mail', 'bench-refunds', 'bench-renewal-off', 'bench-renewal-sweep', 'bench-retention-purge'];

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

const database = await openDatabase({ kind: 'pglite', dataDir: null });
const jobs = await startJobQueue(database, { pollSeconds: POLL_SECONDS });
for (const name of QUEUES) {
  await jobs.declare(name);
  await jobs.work(name, async () => {});
}
// Past the start's own work (the first fetches, pg-boss's first supervision).
await sleep(3);

const windows: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const before = process.cpuUsage();
  await sleep(WINDOW_SECONDS);
  const used = process.cpuUsage(before);
  windows.push(Math.round((used.user + used.system) / 1000));
  console.log(`window ${round + 1}: ${windows.at(-1)} ms of CPU in ${WINDOW_SECONDS} s`);
}
console.log(
  `idle job queue (${QUEUES.length} queues, poll ${POLL_SECONDS} s): median ${median(windows)} ms of CPU per ${WINDOW_SECONDS} s; load average ${loadAverage()}`,
);
await jobs.stop();
await database.close();

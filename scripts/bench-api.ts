/**
 * `npm run bench:api`: throughput of POST /api/auth/verify (hashed-token lookup joined to its user, plus
 * the subscription) beside GET /api/live (a bare route of the same server: no database), on PGlite and, when one
 * answers, on PostgreSQL. autocannon, no pipelining, 10 connections, 5 s per run, loopback only.
 */
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase, type DatabaseTarget } from '../server/db/database.ts';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: 'Bench' }) };

interface Result {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

async function measure(url: string, options: Partial<autocannon.Options>): Promise<Result> {
  const result = await autocannon({ url, connections: 10, pipelining: 1, duration: DURATION_SECONDS, ...options });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx };
}

async function bench(label: string, target: DatabaseTarget) {
  const database = await openDatabase(target);
  const app = await buildApp({ config: loadConfig({ STATIC_DIR: '/nonexistent', LOG_LEVEL: 'error' }), database, verifier, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const signIn = await fetch(`${base}/api/auth/google/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: `bench-${Date.now()}` }),
    });
    const { sessionToken } = (await signIn.json()) as { sessionToken: string };
    const bare = await measure(`${base}/api/live`, { method: 'GET' });
    const verify = await measure(`${base}/api/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionToken }),
    });
    return { label, bare, verify };
  } finally {
    await app.close();
    await database.close();
  }
}

async function postgresAnswers(): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const runs = [await bench('PGlite (in memory)', { kind: 'pglite', dataDir: null })];
if (await postgresAnswers()) runs.push(await bench('PostgreSQL', { kind: 'postgres', url: POSTGRES_URL, schema: 'veil_bench' }));
else console.log(`no PostgreSQL at ${POSTGRES_URL}: PGlite only`);

console.log(`\n${DURATION_SECONDS} s per run, 10 connections, no pipelining\n`);
console.log('database             route                     req/s     p99 ms   non-2xx');
for (const run of runs) {
  for (const [route, result] of [
    ['GET /api/live (bare)', run.bare],
    ['POST /api/auth/verify', run.verify],
  ] as const) {
    console.log(
      `${run.label.padEnd(20)} ${route.padEnd(24)} ${result.requestsPerSecond.toFixed(0).padStart(7)} ${String(result.p99Ms).padStart(9)} ${String(result.non2xx).padStart(9)}`,
    );
  }
  console.log(`${''.padEnd(20)} verify / bare: ${(run.verify.requestsPerSecond / run.bare.requestsPerSecond).toFixed(2)} of the bare route's throughput\n`);
}

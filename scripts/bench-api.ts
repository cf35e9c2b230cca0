/**
 * `npm run bench:api`: how fast POST /api/auth/verify answers compared with GET /api/live, a bare route of
 * the same server (no database), on PostgreSQL when one answers and on PGlite.
 *
 * The API runs as its own process (server/main.ts, as in production) and the load generator as another
 * (autocannon, scripts/bench-load.mjs): in one process they would share an event loop and both figures
 * would be wrong. Verify sends one session's token in every request; BENCH_SESSIONS=<n> spreads it over
 * n accounts' sessions taken in turn, as real traffic is (the session check reads each distinct session
 * once per turn of the event loop, so one session for every request flatters it).
 *
 * Bare and verify alternate over several rounds so that a neighbour's burst on a shared machine hits both
 * alike; the summary gives medians and the verify/bare ratio of the medians.
 *
 *   BENCH_ROUNDS (5), BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_DATABASES ("postgres,pglite"),
 *   BENCH_SESSIONS (1): how many accounts' sessions verify takes in turn,
 *   BENCH_CPU_PROF=<dir>: the API runs under `node --cpu-prof` and writes its profile there;
 *   BENCH_API_ENTRY: another server/main.ts to measure (a checkout of an older commit, to compare).
 *
 * Besides throughput, it reports the API process's own CPU time per request (Linux, from /proc): on a
 * machine shared with other work, throughput swings with the neighbours while CPU per request barely moves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseTarget } from '../server/db/database.ts';
import { users } from '../server/db/schema.ts';
import { createSession } from '../server/domain/sessions.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',');
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1);
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_SCHEMA = 'veil_bench';
const ROOT = join(import.meta.dirname, '..');
const API_ENTRY = process.env.BENCH_API_ENTRY ?? join(ROOT, 'server/main.ts');

interface Measure {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** The API process's CPU time (user + system) per request, microseconds; NaN where /proc is missing. */
  cpuMicros: number;
}

/** CPU seconds a process has used so far (Linux), or NaN. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return Number.NaN;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** One autocannon run in a process of its own; its JSON report read from stdout. */
async function autocannon(url: string, tokensFile: string | null, apiPid?: number): Promise<Measure> {
  const cpuBefore = cpuSeconds(apiPid);
  const measure = await runAutocannon(url, tokensFile);
  const requests = measure.requestsPerSecond * SECONDS;
  return { ...measure, cpuMicros: ((cpuSeconds(apiPid) - cpuBefore) / requests) * 1e6 };
}

function runAutocannon(url: string, tokensFile: string | null): Promise<Omit<Measure, 'cpuMicros'>> {
  const args = [join(ROOT, 'scripts/bench-load.mjs'), url, String(CONNECTIONS), String(SECONDS), ...(tokensFile ? [tokensFile] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const report = JSON.parse(out) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        errors: number;
        timeouts: number;
        non2xx: number;
      };
      resolve({
        requestsPerSecond: report.requests.average,
        p50: report.latency.p50,
        p99: report.latency.p99,
        errors: report.errors + report.timeouts + report.non2xx,
      });
    });
  });
}

async function postgresAnswers(): Promise<boolean> {
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

/** BENCH_SESSIONS accounts with a live session each, written straight into the database the API will open. */
async function seed(target: DatabaseTarget): Promise<string[]> {
  const database = await openDatabase(target);
  try {
    await database.exec('TRUNCATE users CASCADE');
    const accounts = Array.from({ length: SESSIONS }, (_, i) => ({
      id: `usr_bench_${i}`,
      identitySubject: `bench-${i}`,
      provider: 'google' as const,
      email: `bench-${i}@example.com`,
      name: `Bench ${i}`,
    }));
    await database.db.insert(users).values(accounts);
    const tokens: string[] = [];
    for (const account of accounts) tokens.push((await createSession(database.db, account.id, 86_400)).token);
    return tokens;
  } finally {
    await database.close();
  }
}

async function startApi(env: Record<string, string>): Promise<{ base: string; pid: number | undefined; stop: () => Promise<void> }> {
  const port = await freePort();
  const profile = CPU_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROFILE_DIR] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', API_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: '/nonexistent',
      LOG_LEVEL: 'warn',
      // The limits would refuse a benchmark within a second; they still run on every request.
      RATE_LIMIT_SIGN_IN: '100000000',
      RATE_LIMIT_SCALE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${base}/api/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the API did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    pid: child.pid,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function bench(label: string, target: DatabaseTarget, env: Record<string, string>) {
  const tokensDir = mkdtempSync(join(tmpdir(), 'veil-bench-tokens-'));
  const tokensFile = join(tokensDir, 'tokens.json');
  writeFileSync(tokensFile, JSON.stringify(await seed(target)));
  const api = await startApi(env);
  const rounds: Array<{ bare: Measure; verify: Measure }> = [];
  try {
    // Warm-up: JIT, the pool's connections, the prepared statements.
    await autocannon(`${api.base}/api/auth/verify`, tokensFile);
    for (let round = 1; round <= ROUNDS; round += 1) {
      const bare = await autocannon(`${api.base}/api/live`, null, api.pid);
      const verify = await autocannon(`${api.base}/api/auth/verify`, tokensFile, api.pid);
      rounds.push({ bare, verify });
      console.log(
        `${label} round ${round}: bare ${bare.requestsPerSecond.toFixed(0)} req/s (p99 ${bare.p99} ms), ` +
          `verify ${verify.requestsPerSecond.toFixed(0)} req/s (p99 ${verify.p99} ms), ratio ${(verify.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}; ` +
          `API CPU per request: bare ${bare.cpuMicros.toFixed(0)} µs, verify ${verify.cpuMicros.toFixed(0)} µs`,
      );
    }
  } finally {
    await api.stop();
    rmSync(tokensDir, { recursive: true, force: true });
  }
  return { label, rounds };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const runs: Array<Awaited<ReturnType<typeof bench>>> = [];
if (DATABASES.includes('postgres')) {
  if (await postgresAnswers()) {
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${BENCH_SCHEMA}`);
    runs.push(await bench('PostgreSQL', { kind: 'postgres', url: POSTGRES_URL, schema: BENCH_SCHEMA }, { DATABASE_URL: url.toString() }));
  } else {
    console.log(`no PostgreSQL at ${POSTGRES_URL}: PGlite only`);
  }
}
if (DATABASES.includes('pglite')) {
  const dataDir = mkdtempSync(join(tmpdir(), 'veil-bench-'));
  try {
    runs.push(await bench('PGlite', { kind: 'pglite', dataDir }, { DATA_DIR: dataDir }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `\n${new Date().toISOString().slice(0, 10)}: ${ROUNDS} rounds of ${SECONDS} s per route, ${CONNECTIONS} connections, no pipelining, ` +
    `verify over ${SESSIONS === 1 ? "one account's session" : `${SESSIONS} accounts' sessions`}; medians\n`,
);
console.log('database     route                      req/s   p50 ms   p99 ms   errors   API CPU µs/request');
for (const run of runs) {
  for (const route of ['bare', 'verify'] as const) {
    const measures = run.rounds.map((round) => round[route]);
    console.log(
      [
        run.label.padEnd(12),
        (route === 'bare' ? 'GET /api/live (bare)' : 'POST /api/auth/verify').padEnd(24),
        median(measures.map((m) => m.requestsPerSecond)).toFixed(0).padStart(7),
        String(median(measures.map((m) => m.p50))).padStart(8),
        String(median(measures.map((m) => m.p99))).padStart(8),
        String(measures.reduce((sum, m) => sum + m.errors, 0)).padStart(8),
        median(measures.map((m) => m.cpuMicros)).toFixed(0).padStart(20),
      ].join(' '),
    );
  }
  const ratio = median(run.rounds.map((r) => r.verify.requestsPerSecond)) / median(run.rounds.map((r) => r.bare.requestsPerSecond));
  const perRound = run.rounds.map((r) => r.verify.requestsPerSecond / r.bare.requestsPerSecond);
  console.log(
    `${''.padEnd(12)} verify / bare: ${ratio.toFixed(2)} (rounds ${Math.min(...perRound).toFixed(2)} to ${Math.max(...perRound).toFixed(2)})\n`,
  );
}

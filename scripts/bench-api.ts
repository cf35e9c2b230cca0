/**
 * `npm run bench:api`: how fast POST /api/auth/verify answers compared with GET /api/live, a bare route of
 * the same server (no database), on PostgreSQL when one answers and on PGlite.
 *
 * The API runs as its own process (dist-api/main.js, as in production) and the load generator as another
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
 *   BENCH_ROUTES ("bare,verify"): which routes to measure,
 *   BENCH_STARTS (3): how many times each API is started on its (existing) database; the median start-up
 *   time, from the process's start to its first answer of /api/live, is reported,
 *   BENCH_CPU_PROF=<dir>: each API runs under `node --cpu-prof`, writes its profile under <dir>/<api>, and
 *   the bench prints each profile's top entries by self time at the end,
 *   BENCH_BASELINE=<commit>: that commit is checked out in a temporary folder (scripts/lib/baseline-checkout.ts)
 *   and measured beside this checkout, both APIs up at once, each on its own database, taking turns in
 *   every round (which goes first alternates), so both see the same neighbours;
 *   BENCH_API_ENTRY: the baseline's server/main.ts instead, from a checkout made by hand.
 *
 * This checkout's API runs as production does, compiled (dist-api/, built first); an older checkout
 * through tsx. Both APIs run with what production has on: JSON request logging at info (to /dev/null, written all the same),
 * metrics on every route and the request timeout on; only the rate limits are raised out of the way.
 * Besides throughput, it reports the API process's own CPU time per request (Linux, from /proc): on a
 * machine shared with other work, throughput swings with the neighbours while CPU per request barely moves.
 * Every round prints the load average beside its figures; on a busy machine compare only the ratios
 * between the two APIs of one run.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseTarget } from '../server/db/database.ts';
import { users } from '../server/db/schema.ts';
import { createSession } from '../server/domain/accounts/sessions.ts';
import { baselineCheckout, type BaselineCheckout } from './lib/baseline-checkout.ts';
import { topEntries } from './lib/cpu-profile-top.ts';
import { loadAverage, median } from './lib/bench-figures.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',');
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1);
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_SCHEMA = 'veil_bench';
const ROOT = join(import.meta.dirname, '..');
const STARTS = Math.max(1, Number(process.env.BENCH_STARTS ?? 3));
const ROUTES = (process.env.BENCH_ROUTES ?? 'bare,verify').split(',') as Route[];
const BASELINE = process.env.BENCH_BASELINE;

type Route = 'bare' | 'verify';
const ROUTE_URLS: Record<Route, string> = { bare: '/api/live', verify: '/api/auth/verify' };
const ROUTE_NAMES: Record<Route, string> = { bare: 'GET /api/live (bare)', verify: 'POST /api/auth/verify' };

/** An API to measure: this checkout's, and the baseline's when one is given. */
interface Target {
  name: string;
  /** The checkout's folder, and node's arguments to run its API there. */
  dir: string;
  args: string[];
}
let checkout: BaselineCheckout | null = null;
if (BASELINE) checkout = baselineCheckout(ROOT, BASELINE);
/** An older checkout runs its TypeScript through tsx, as production did before issue 32. */
const throughTsx = (name: string, entry: string): Target => ({ name, dir: join(entry, '..', '..'), args: ['--import', 'tsx', entry] });
const TARGETS: Target[] = [
  // This checkout as production runs it: the compiled build (npm run build:api, made below).
  { name: 'now', dir: ROOT, args: [join(ROOT, 'dist-api', 'main.js')] },
  ...(checkout ? [throughTsx(BASELINE!.slice(0, 7), checkout.entry)] : []),
  ...(process.env.BENCH_API_ENTRY ? [throughTsx('baseline', process.env.BENCH_API_ENTRY)] : []),
];
execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.api.config.ts'], { cwd: ROOT, stdio: 'inherit' });

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
async function seed(target: DatabaseTarget, forOlderCode: boolean): Promise<string[]> {
  const database = await openDatabase(target);
  try {
    await database.exec('TRUNCATE users CASCADE');
    // The database has this checkout's schema. Older code writes a session's last use with its time of day,
    // which issue 31's CHECK refuses: every verify would fail and the baseline's figures would be errors.
    if (forOlderCode) await database.exec('ALTER TABLE sessions DROP CONSTRAINT IF EXISTS sessions_last_used_day');
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

async function startApi(label: string, target: Target, env: Record<string, string>): Promise<{ base: string; pid: number | undefined; startupMs: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const profileDir = CPU_PROFILE_DIR ? join(CPU_PROFILE_DIR, `${label}-${target.name}`) : null;
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...profile, ...target.args], {
    cwd: target.dir,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: '/nonexistent',
      // Production's logging: a JSON line per request at info (to /dev/null below, but written all the same).
      LOG_LEVEL: 'info',
      MAIL: 'off',
      // The limits would refuse a benchmark within a second; they still run on every request.
      RATE_LIMIT_SIGN_IN: '100000000',
      RATE_LIMIT_SCALE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${base}/api/live`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the API (${target.name}) did not start`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startupMs = performance.now() - started;
  return {
    base,
    pid: child.pid,
    startupMs,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

type Round = Partial<Record<Route, Measure>>;

interface DatabaseSetup {
  label: string;
  /** A database of its own for each API. */
  forTarget: (index: number) => { target: DatabaseTarget; env: Record<string, string>; cleanup: () => void };
}

async function bench({ label, forTarget }: DatabaseSetup) {
  const tokensDir = mkdtempSync(join(tmpdir(), 'veil-bench-tokens-'));
  const apis: Array<{ target: Target; api: Awaited<ReturnType<typeof startApi>>; tokensFile: string; rounds: Round[]; cleanup: () => void }> = [];
  try {
    for (const [index, target] of TARGETS.entries()) {
      const database = forTarget(index);
      const tokensFile = join(tokensDir, `tokens-${index}.json`);
      writeFileSync(tokensFile, JSON.stringify(await seed(database.target, index > 0)));
      // Start-up on the existing (seeded, migrated) database: the median of BENCH_STARTS starts.
      const startups: number[] = [];
      for (let start = 1; start < STARTS; start += 1) {
        const once = await startApi(label, target, database.env);
        startups.push(once.startupMs);
        await once.stop();
      }
      const api = await startApi(label, target, database.env);
      startups.push(api.startupMs);
      console.log(
        `${label} ${target.name}: answered /api/live ${startups.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s after its process started (load average ${loadAverage()})`,
      );
      apis.push({ target, api: { ...api, startupMs: median(startups) }, tokensFile, rounds: [], cleanup: database.cleanup });
    }
    // An API that answers a route with errors is not measured: its figures would be its failures'.
    for (const { target, api, tokensFile } of apis) {
      if (!ROUTES.includes('verify')) break;
      const [token] = JSON.parse(readFileSync(tokensFile, 'utf8')) as string[];
      const answer = await fetch(`${api.base}${ROUTE_URLS.verify}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionToken: token }) });
      if (!answer.ok) throw new Error(`the API (${target.name}) answers verify with ${answer.status}: ${await answer.text()}`);
    }
    // Warm-up: JIT, the pool's connections, the prepared statements.
    for (const { api, tokensFile } of apis) {
      for (const route of ROUTES) await autocannon(`${api.base}${ROUTE_URLS[route]}`, route === 'verify' ? tokensFile : null);
    }
    measuredSince.set(label, Number(process.hrtime.bigint() / 1000n));
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Which API goes first alternates, so a neighbour's burst does not always fall on the same one.
      const order = round % 2 ? apis : [...apis].reverse();
      for (const entry of order) {
        const measures: Round = {};
        for (const route of ROUTES) {
          measures[route] = await autocannon(`${entry.api.base}${ROUTE_URLS[route]}`, route === 'verify' ? entry.tokensFile : null, entry.api.pid);
        }
        entry.rounds.push(measures);
        console.log(
          `${label} ${entry.target.name} round ${round}: ` +
            ROUTES.map((route) => `${route} ${measures[route]!.requestsPerSecond.toFixed(0)} req/s (p99 ${measures[route]!.p99} ms, ${measures[route]!.cpuMicros.toFixed(0)} µs CPU)`).join(', ') +
            ` | load average ${loadAverage()}`,
        );
      }
    }
  } finally {
    for (const { api, cleanup } of apis) {
      await api.stop();
      cleanup();
    }
    rmSync(tokensDir, { recursive: true, force: true });
  }
  return { label, apis: apis.map(({ target, api, rounds }) => ({ target, startupMs: api.startupMs, rounds })) };
}

/** When the first measured round began (monotonic µs): the profiles' entries count from there. */
const measuredSince = new Map<string, number>();
const loadBefore = loadAverage();
const startedAt = new Date();
const runs: Array<Awaited<ReturnType<typeof bench>>> = [];
try {
  if (DATABASES.includes('postgres')) {
    if (await postgresAnswers()) {
      runs.push(
        await bench({
          label: 'PostgreSQL',
          forTarget: (index) => {
            const schema = index === 0 ? BENCH_SCHEMA : `${BENCH_SCHEMA}_${index}`;
            const url = new URL(POSTGRES_URL);
            url.searchParams.set('options', `-c search_path=${schema}`);
            return { target: { kind: 'postgres', url: POSTGRES_URL, schema }, env: { DATABASE_URL: url.toString() }, cleanup: () => undefined };
          },
        }),
      );
    } else {
      console.log(`no PostgreSQL at ${POSTGRES_URL}: PGlite only`);
    }
  }
  if (DATABASES.includes('pglite')) {
    runs.push(
      await bench({
        label: 'PGlite',
        forTarget: () => {
          const dataDir = mkdtempSync(join(tmpdir(), 'veil-bench-'));
          return { target: { kind: 'pglite', dataDir }, env: { DATA_DIR: dataDir }, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
        },
      }),
    );
  }
} finally {
  checkout?.remove();
}

console.log(
  `\n${startedAt.toISOString().slice(0, 16)} to ${new Date().toISOString().slice(11, 16)} UTC, load average before ${loadBefore}, after ${loadAverage()}: ` +
    `${ROUNDS} rounds of ${SECONDS} s per route, ${CONNECTIONS} connections, no pipelining, ` +
    `verify over ${SESSIONS === 1 ? "one account's session" : `${SESSIONS} accounts' sessions`}; medians\n`,
);
console.log('database     api        route                      req/s   p50 ms   p99 ms   errors   API CPU µs/request   start-up s');
for (const run of runs) {
  for (const { target, startupMs, rounds } of run.apis) {
    for (const route of ROUTES) {
      const measures = rounds.map((round) => round[route]!);
      console.log(
        [
          run.label.padEnd(12),
          target.name.padEnd(10),
          ROUTE_NAMES[route].padEnd(24),
          median(measures.map((m) => m.requestsPerSecond)).toFixed(0).padStart(7),
          String(median(measures.map((m) => m.p50))).padStart(8),
          String(median(measures.map((m) => m.p99))).padStart(8),
          String(measures.reduce((sum, m) => sum + m.errors, 0)).padStart(8),
          median(measures.map((m) => m.cpuMicros)).toFixed(0).padStart(20),
          (startupMs / 1000).toFixed(2).padStart(12),
        ].join(' '),
      );
    }
    if (ROUTES.includes('bare') && ROUTES.includes('verify')) {
      const perRound = rounds.map((r) => r.verify!.requestsPerSecond / r.bare!.requestsPerSecond);
      const ratio = median(rounds.map((r) => r.verify!.requestsPerSecond)) / median(rounds.map((r) => r.bare!.requestsPerSecond));
      console.log(`${''.padEnd(23)} verify / bare: ${ratio.toFixed(2)} (rounds ${Math.min(...perRound).toFixed(2)} to ${Math.max(...perRound).toFixed(2)})`);
    }
  }
  const [now, baseline] = run.apis;
  if (now && baseline) {
    for (const route of ROUTES) {
      const of = (api: typeof now, pick: (m: Measure) => number) => median(api.rounds.map((round) => pick(round[route]!)));
      console.log(
        `${''.padEnd(23)} ${ROUTE_NAMES[route]}: now / ${baseline.target.name}: req/s ${(of(now, (m) => m.requestsPerSecond) / of(baseline, (m) => m.requestsPerSecond)).toFixed(2)}, ` +
          `CPU per request ${(of(now, (m) => m.cpuMicros) / of(baseline, (m) => m.cpuMicros)).toFixed(2)}`,
      );
    }
  }
  console.log('');
}
if (Number(loadavg()[0]) > 1.5) console.log(`The machine was busy (load average ${loadAverage()} on 2 cores): compare only the ratios between APIs of this run.`);

if (CPU_PROFILE_DIR) {
  for (const run of runs) {
    for (const target of TARGETS) {
      const dir = join(CPU_PROFILE_DIR, `${run.label}-${target.name}`);
      for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
        console.log(`\nCPU profile, ${run.label}, ${target.name} (${join(dir, file)}), measured rounds only, self time, share of busy time:`);
        for (const { name, share } of topEntries(join(dir, file), 20, measuredSince.get(run.label))) console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
      }
    }
  }
}

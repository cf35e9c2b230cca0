/**
 * `npm run bench:web`: what the public pages cost a phone (issue 12). Builds the site, starts the product
 * as `npm start` does (the API serving the build, on a free port, with a demo client configuration), and
 * runs Lighthouse in its default mobile mode (simulated slow 4G, 4x CPU slowdown) on every public route;
 * prints per route the performance score, LCP, TBT, CLS, bytes and JavaScript transferred, and with
 * BENCH_ROUNDS > 1 a summary per route (issue 25): the worst round's score, the median TBT with its range and
 * the other medians. A benchmark, not a test: the figures go in docs/performance.md. The machine's load
 * average is printed before and after, since a shared machine's figures swing with it, with a warning when
 * it was above one runnable task per core. A Lighthouse run that fails is tried three times; a route still
 * unmeasured goes without that round, which the summary and a warning say (and the exit code is 1).
 *
 * Beside the public pages, the signed-in ones (issue 32, item 4): `/account` of a subscriber (active
 * subscription, billing history, two desktop devices) and `/subscribe` of a signed-in customer who has not
 * subscribed, each customer made through the API (scripts/lib/signed-in-bench.ts) against a Firebase Auth
 * emulator this bench starts (BENCH_AUTH_EMULATOR_PORT, default 9499, and the two ports after it), and each
 * run in a fresh browser profile signed in as that customer through the sign-in page.
 *
 * Chromium: CHROME_PATH, else the e2e tests' choice (tests/support/chromium-path.ts).
 * Usage: BENCH_ROUNDS=3 npm run bench:web   (--no-build: measure the current dist/)
 * BENCH_ROUTES=/,/terms,/account,/subscribe: only these routes (/subscribe is the signed-in one). BENCH_REPORTS=<folder>: also keep each Lighthouse JSON report there (render-blocking requests, LCP element…).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildSpa } from './lib/spa-build.mjs';
import { measureHomePage } from './size.mjs';
import { resolveChromiumPath } from '../tests/support/chromium-path.ts';
import { startAuthEmulator } from '../tests/support/auth-emulator.ts';
import { startStack } from '../tests/support/stack.ts';
import { makeSignedInCustomers, profileWithSession, type SignedInCustomers } from './lib/signed-in-bench.ts';
import { loadAverage, median } from './lib/bench-figures.ts';

/** A path no page has: the 404 page, which answers HTTP 404 on purpose (issue 22 item 12). */
const NOT_FOUND_ROUTE = '/no-such-page';
/** Signed-in routes and whose session each is measured with. */
const SIGNED_IN: Record<string, keyof SignedInCustomers> = { '/account': 'subscriber', '/subscribe': 'notSubscribed' };
const ALL_ROUTES = ['/', '/support', '/privacy', '/terms', '/signin', '/success', '/cancel', '/status', NOT_FOUND_ROUTE, '/account', '/subscribe'];
const ROUTES = process.env.BENCH_ROUTES ? process.env.BENCH_ROUTES.split(',') : ALL_ROUTES;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const root = process.cwd();
const REPORTS = process.env.BENCH_REPORTS;

interface Figures {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  kb: number;
  /** JavaScript transferred (Lighthouse's resource summary, scripts). */
  jsKb: number;
}

interface LighthouseResult {
  runtimeError?: { code: string; message: string };
  categories: { performance: { score: number | null } };
  audits: Record<string, { numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number }[] } }>;
}

/** `profileDir`: a browser profile to measure in, its storage kept (a signed-in page's session). */
function runLighthouse(url: string, chromePath: string, reportPath?: string, profileDir?: string): Promise<LighthouseResult> {
  const cli = join(root, 'node_modules', 'lighthouse', 'cli', 'index.js');
  const args = [
    cli,
    url,
    '--quiet',
    '--output=json',
    '--output-path=stdout',
    '--only-categories=performance',
    `--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking${profileDir ? ` --user-data-dir=${profileDir}` : ''}`,
    ...(profileDir ? ['--disable-storage-reset'] : []),
    // Lighthouse refuses to measure a page answered with an error status unless told it is meant.
    ...(new URL(url).pathname === NOT_FOUND_ROUTE ? ['--ignore-status-code'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: chromePath }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited with ${code}: ${err.slice(-500)}`));
      try {
        const result = JSON.parse(out) as LighthouseResult;
        if (result.runtimeError) return reject(new Error(`${result.runtimeError.code}: ${result.runtimeError.message}`));
        if (reportPath) writeFileSync(reportPath, out);
        resolve(result);
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

/** Lighthouse runs per route and round before the round is given up: Chromium now and then loses the navigation (NO_NAVSTART). */
const ATTEMPTS = 3;

/** The route's figures, or null (with the reason printed) when every attempt failed: that round then goes without it. */
async function measure(url: string, chromePath: string, reportPath?: string, signedInAs?: string): Promise<Figures | null> {
  let result: LighthouseResult | undefined;
  // A fresh profile for each run: a run's cache must not warm the next.
  const run = async () => {
    const profileDir = signedInAs ? await profileWithSession(chromePath, new URL(url).origin, signedInAs) : undefined;
    try {
      return await runLighthouse(url, chromePath, reportPath, profileDir);
    } finally {
      if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    }
  };
  for (let attempt = 1; attempt <= ATTEMPTS && !result; attempt += 1) {
    try {
      result = await run();
    } catch (error) {
      // The first connection to a freshly started Chromium sometimes fails, and a busy machine's Chromium now
      // and then loses the navigation (NO_NAVSTART): a few more attempts, then this round goes without the route.
      const more = attempt < ATTEMPTS ? 'retrying' : `giving up on this round after ${ATTEMPTS} attempts`;
      console.error(`[bench:web] ${url}: ${(error as Error).message.split('\n')[0]}; ${more}`);
    }
  }
  if (!result) return null;
  const audit = (id: string) => result.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: Math.round((result.categories.performance.score ?? 0) * 100),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    kb: audit('total-byte-weight') / 1024,
    jsKb: (result.audits['resource-summary']?.details?.items?.find((item) => item.resourceType === 'script')?.transferSize ?? Number.NaN) / 1024,
  };
}

function row(route: string, figures: Figures) {
  return `${route.padEnd(16)} ${String(figures.performance).padStart(5)} ${(figures.lcpMs / 1000).toFixed(2).padStart(7)} s ${Math.round(figures.tbtMs).toString().padStart(6)} ms ${figures.cls.toFixed(3).padStart(7)} ${figures.kb.toFixed(1).padStart(8)} KB ${figures.jsKb.toFixed(1).padStart(8)} KB`;
}
/** Signed-in routes are marked so, beside the public ones. */
const labelOf = (route: string) => (route === '/account' ? '/account (in)' : route === '/subscribe' ? '/subscribe (in)' : route);
const HEADER = `${'route'.padEnd(16)} ${'perf'.padStart(5)} ${'LCP'.padStart(9)} ${'TBT'.padStart(9)} ${'CLS'.padStart(7)} ${'bytes'.padStart(11)} ${'JS'.padStart(11)}`;

/** Per route over the rounds: the worst round's score (issue 25's gate), the median TBT and its range, the other medians. */
function summaryRow(route: string, runs: Figures[]) {
  if (runs.length === 0) return `${route.padEnd(16)} not measured in any round`;
  const of = (key: keyof Figures) => median(runs.map((run) => run[key]));
  const tbts = runs.map((run) => Math.round(run.tbtMs));
  const worst = Math.min(...runs.map((run) => run.performance));
  return `${route.padEnd(16)} ${String(worst).padStart(6)} ${String(of('performance')).padStart(6)} ${Math.round(of('tbtMs')).toString().padStart(7)} ms ${`${Math.min(...tbts)}-${Math.max(...tbts)}`.padStart(10)} ${(of('lcpMs') / 1000).toFixed(2).padStart(7)} s ${Math.max(...runs.map((run) => run.cls)).toFixed(3).padStart(8)} ${of('kb').toFixed(1).padStart(8)} KB ${of('jsKb').toFixed(1).padStart(8)} KB`;
}
const SUMMARY_HEADER = `${'route'.padEnd(16)} ${'worst'.padStart(6)} ${'perf'.padStart(6)} ${'TBT'.padStart(10)} ${'TBT range'.padStart(10)} ${'LCP'.padStart(9)} ${'CLS max'.padStart(8)} ${'bytes'.padStart(11)} ${'JS'.padStart(11)}`;

/** Above this one-minute load average (about one runnable task per core), the figures are not an idle machine's. */
const BUSY_LOAD = cpus().length;

async function main() {
  if (!process.argv.includes('--no-build')) {
    console.error('[bench:web] building…');
    await buildSpa(root);
  }
  const chromePath = process.env.CHROME_PATH ?? (await resolveChromiumPath());
  if (REPORTS) mkdirSync(REPORTS, { recursive: true });
  const loadBefore = loadavg()[0]!;
  console.log(`[bench:web] load average before: ${loadAverage()}`);
  const emulator = await startAuthEmulator(Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9499));
  const stack = await startStack({ FIREBASE_AUTH_EMULATOR_HOST: emulator.host }).catch(async (error: unknown) => {
    await emulator.stop();
    throw error;
  });
  const results = new Map<string, Figures[]>(ROUTES.map((route) => [route, []]));
  try {
    const customers = ROUTES.some((route) => route in SIGNED_IN) ? await makeSignedInCustomers(stack.url, `http://${emulator.host}`) : null;
    for (let round = 1; round <= ROUNDS; round += 1) {
      console.log(`\nRound ${round} of ${ROUNDS} (Lighthouse mobile, ${stack.url})`);
      console.log(HEADER);
      for (const route of ROUTES) {
        const reportPath = REPORTS ? join(REPORTS, `${route === '/' ? 'home' : route.slice(1).replace(/\W+/g, '_')}-${round}.json`) : undefined;
        const who = SIGNED_IN[route];
        const figures = await measure(`${stack.url}${route}`, chromePath, reportPath, who ? customers![who] : undefined);
        if (figures) results.get(route)!.push(figures);
        console.log(figures ? row(labelOf(route), figures) : `${labelOf(route).padEnd(16)} not measured this round (see above)`);
      }
    }
  } finally {
    await stack.stop();
    await emulator.stop();
  }
  if (ROUNDS > 1) {
    console.log(`\nOver ${ROUNDS} rounds: the worst round's score, then medians (TBT also its range; CLS the largest)`);
    console.log(SUMMARY_HEADER);
    for (const [route, runs] of results) console.log(summaryRow(labelOf(route), runs) + (runs.length < ROUNDS ? `  (${runs.length} of ${ROUNDS} rounds)` : ''));
  }
  console.log(`\n[bench:web] load average after: ${loadAverage()}`);
  const busiest = Math.max(loadBefore, loadavg()[0]!);
  if (busiest > BUSY_LOAD) {
    console.log(
      `[bench:web] WARNING: the machine was busy (load average up to ${busiest.toFixed(2)} on ${cpus().length} cores): a task that loses its core ` +
        'is measured as long, so TBT and scores are worse than the pages are. Rerun on a quiet machine before comparing with a goal.',
    );
  }
  const unmeasured = [...results].filter(([, runs]) => runs.length < ROUNDS).map(([route]) => route);
  if (unmeasured.length > 0) {
    console.log(`[bench:web] WARNING: not every round measured ${unmeasured.join(', ')}: their figures rest on fewer rounds (the reasons are printed above).`);
    process.exitCode = 1;
  }
  const home = measureHomePage(join(root, 'dist'));
  console.log(`\nHome page JavaScript before it is interactive: ${home.homePageGzipKb} KB gzip (npm run size)`);
}

await main();

/**
 * `npm run bench:tasks`: the main thread's long tasks on a signed-in page (issue 32 item 4), a build against
 * another in one run. Lighthouse's page-level figures (`npm run bench:web`) move by hundreds of milliseconds
 * between two loads of the same build here, which hides a change of one task; this bench reads the tasks
 * themselves. For each load it records a Chromium performance trace of the page at the machine's own speed
 * (a fresh profile signed in as the customer, as bench:web does) and counts, after the First Contentful Paint,
 * every task longer than 12.5 ms as Lighthouse's Total Blocking Time counts it at its 4x CPU slowdown:
 * 4 × its duration − 50 ms. No network throttling: this measures the main thread, not the network.
 *
 * Loads alternate between the builds (each served by its own API, on one Auth emulator), so a busy minute
 * falls on both; it prints each load, then per build the medians and their ratio, with the load average.
 *
 * Usage: BENCH_BASELINE_DIST=/path/to/other/dist npm run bench:tasks -- --no-build
 *   BENCH_ROUTE=/account (default) or /subscribe; BENCH_LOADS=8 per build; without BENCH_BASELINE_DIST, this
 *   build alone. --no-build measures the current dist/ as it is. Chromium: CHROME_PATH, else the tests' choice.
 */
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildSpa } from './lib/spa-build.mjs';
import { resolveChromiumPath } from '../tests/support/chromium-path.ts';
import { startAuthEmulator } from '../tests/support/auth-emulator.ts';
import { startStack, type RunningStack } from '../tests/support/stack.ts';
import { makeSignedInCustomers, profileWithSession } from './lib/signed-in-bench.ts';
import { longTaskFigures, type LongTaskFigures, type TraceEvent } from './lib/long-tasks.ts';
import { loadAverage, median } from './lib/bench-figures.ts';

const ROUTE = process.env.BENCH_ROUTE ?? '/account';
const LOADS = Math.max(1, Number(process.env.BENCH_LOADS ?? 8));
const BASELINE = process.env.BENCH_BASELINE_DIST;
const root = process.cwd();
/** What Chromium records: its timeline (the main thread's tasks, the paints), V8's script evaluation, the navigation's start. */
const CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing,loading,toplevel';

/** One load of `url` in a fresh profile signed in as `email`: its trace, read into figures. */
async function traceLoad(chromePath: string, url: string, email: string): Promise<LongTaskFigures> {
  const profile = await profileWithSession(chromePath, new URL(url).origin, email);
  const browser = await chromium.launchPersistentContext(profile, { executablePath: chromePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const cdp = await browser.newCDPSession(page);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
    await page.goto(url);
    // The page's last answers and cards: the network quiet, then a moment for the renders it started.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1500);
    await cdp.send('Tracing.end');
    await complete;
    return longTaskFigures(events);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const row = (label: string, f: LongTaskFigures) =>
  `${label.padEnd(10)} FCP ${f.fcpMs.toFixed(0).padStart(5)} ms  LCP ${f.lcpMs.toFixed(0).padStart(5)} ms  long tasks ${String(f.longTasks).padStart(3)}  TBT at 4x ${f.tbtAt4xMs.toFixed(0).padStart(5)} ms  longest ${f.longestMs.toFixed(1).padStart(5)} ms`;

async function main() {
  if (!process.argv.includes('--no-build')) {
    console.error('[bench:tasks] building…');
    await buildSpa(root);
  }
  const chromePath = process.env.CHROME_PATH ?? (await resolveChromiumPath());
  const loadBefore = loadavg()[0]!;
  console.log(`[bench:tasks] ${ROUTE}, ${LOADS} loads per build; load average before: ${loadAverage()}`);
  const emulator = await startAuthEmulator(Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9499));
  const builds: { label: string; dist: string }[] = [{ label: 'this', dist: join(root, 'dist') }];
  if (BASELINE) builds.push({ label: 'baseline', dist: BASELINE });
  const served: { label: string; stack: RunningStack; email: string; runs: LongTaskFigures[] }[] = [];
  try {
    for (const { label, dist } of builds) {
      const stack = await startStack({ FIREBASE_AUTH_EMULATOR_HOST: emulator.host, STATIC_DIR: dist });
      // Listed before its customer is made, so that a failure there still stops it (finally, below).
      served.push({ label, stack, email: '', runs: [] });
      const customers = await makeSignedInCustomers(stack.url, `http://${emulator.host}`);
      served.at(-1)!.email = ROUTE === '/account' ? customers.subscriber : customers.notSubscribed;
    }
    for (let round = 0; round < LOADS; round += 1) {
      // Alternating which goes first, so neither build always follows the other's load.
      for (const build of round % 2 ? [...served].reverse() : served) {
        const figures = await traceLoad(chromePath, `${build.stack.url}${ROUTE}`, build.email);
        build.runs.push(figures);
        console.log(row(`${build.label} ${round + 1}`, figures));
      }
    }
  } finally {
    for (const { stack } of served) await stack.stop();
    await emulator.stop();
  }
  console.log('\nMedians per build');
  const medians = served.map(({ label, runs }) => {
    const of = (key: keyof LongTaskFigures) => median(runs.map((run) => run[key]));
    const figures: LongTaskFigures = { fcpMs: of('fcpMs'), lcpMs: of('lcpMs'), longTasks: of('longTasks'), tbtAt4xMs: of('tbtAt4xMs'), longestMs: of('longestMs') };
    console.log(row(label, figures));
    return figures;
  });
  if (medians.length === 2) {
    const ratio = (key: keyof LongTaskFigures) => (medians[0]![key] / medians[1]![key]).toFixed(2);
    console.log(`this / baseline: TBT at 4x ${ratio('tbtAt4xMs')}x, longest task ${ratio('longestMs')}x, LCP ${ratio('lcpMs')}x`);
  }
  const busiest = Math.max(loadBefore, loadavg()[0]!);
  console.log(`[bench:tasks] load average after: ${loadAverage()}`);
  if (busiest > cpus().length) console.log('[bench:tasks] WARNING: the machine was busy: compare ratios taken in one run, not figures across runs.');
}

await main();

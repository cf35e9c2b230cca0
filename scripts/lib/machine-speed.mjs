/**
 * How much slower this machine runs the test suite's kind of work than the machine tests/budgets.ts's
 * figures were set on (issue 50, item 4). Machines of CI's one kind have differed more than threefold: the
 * same suite took ~580 s of CPU on the twelfth session's machine, ~808 s on the tenth's and 1,659-1,717 s on
 * the eleventh's (docs/performance.md, "Test budgets" and "A machine twice as slow"). Fixed wall-time
 * ceilings either fail every run on the slower machine or are too loose on the faster one to catch anything.
 * So the budgets stay in the faster machine's seconds, and a run multiplies them by this factor (never less
 * than 1), as Node's own tests scale their timeouts on slower platforms (common.platformTimeout).
 *
 * The measure: a fresh Node process doing what the suite's processes do most (import Fastify, zod and pg,
 * fill memory, then parse, filter and write JSON), its wall time the median of five, taken before the tests
 * start, on an otherwise quiet machine. It varies by ±10-15 % from one run to the next on one machine, and a
 * single file's time by far more (tests/budgets.ts), so the ceilings leave that room rather than trust it.
 */
import { spawnSync } from 'node:child_process';

/**
 * The measure's median on the machine the budgets were set on, in ms: the twelfth session's machine, just
 * after a test run (eight medians of five rounds: 253 to 279 ms, their median 263), rounded up. Until then it
 * was 460 ms, an estimate of the tenth session's machine from the eleventh's ~950 ms and the suite's CPU
 * ratio between the two; the eleventh's machine measured 3.1-4.0 times this one.
 */
export const REFERENCE_MS = 270;

/** Where the factor is handed on: scripts/test.mjs measures once for its two Vitest runs and their workers. */
const SLOWNESS_ENV = 'TEST_MACHINE_SLOWNESS';

const WORK = `
await import('fastify'); await import('zod'); await import('pg');
const memory = []; for (let i = 0; i < 4; i++) memory.push(Buffer.alloc(16e6, i));
let text = JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ id: i, name: 'customer-' + i, plan: i % 3 ? 'monthly' : 'yearly', tags: ['a', String(i)] })));
let found = 0;
for (let round = 0; round < 6; round++) { const rows = JSON.parse(text); found += rows.filter((row) => /customer-1\\d*$/.test(row.name)).length; text = JSON.stringify(rows); }
if (found === 0) process.exit(1);
`;

/** The measure on this machine now, in ms (the median of `rounds`). */
function measureMs(root, rounds = 5) {
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', WORK], { cwd: root, stdio: 'ignore' });
    if (run.status !== 0) throw new Error(`the machine's speed measure failed (exit ${run.status})`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

/** The factor the budgets are multiplied by on this machine: the measure over the reference's, at least 1. */
export function slownessOf(measuredMs) {
  return Math.max(1, measuredMs / REFERENCE_MS);
}

/** The factor a caller already measured and put in `env`; undefined when none did. */
export function givenSlowness(env = process.env) {
  const given = Number(env[SLOWNESS_ENV]);
  return Number.isFinite(given) && given >= 1 ? given : undefined;
}

/**
 * The factor measured again now, whatever `env` holds: tests/support/slowest-files-reporter.ts asks before it
 * fails a run over its budgets, since a machine of CI's kind has slowed more than twofold within a run.
 */
export function slownessNow(root) {
  return slownessOf(measureMs(root));
}

/**
 * The factor for this run: the one already in `env` (a caller measured it), else measured now and put there
 * for the processes started after (Vitest's workers inherit it).
 */
export function machineSlowness(root, env = process.env) {
  const given = givenSlowness(env);
  if (given !== undefined) return given;
  const slowness = slownessOf(measureMs(root));
  env[SLOWNESS_ENV] = slowness.toFixed(2);
  return Number(env[SLOWNESS_ENV]);
}

/**
 * What the test suite may cost (issue 50, item 4), checked by tests/support/slowest-files-reporter.ts at
 * the end of every run: a file over its ceiling, or a project over its wall-time budget, fails the run
 * with its name and time. The figures are seconds on the machine scripts/lib/machine-speed.mjs's reference
 * was measured on (a quiet two-core machine of CI's kind, the twelfth session's), with room for a noisy
 * run; docs/performance.md ("Test budgets") keeps the measurements they come from. A file that
 * needs more than its project's ceiling is named below with the reason; raising a figure is a decision,
 * written in the commit that does it.
 *
 * A run multiplies every figure by the machine's measured slowness against the one they were set on
 * (scripts/lib/machine-speed.mjs, at least 1): machines of CI's one kind have differed more than threefold.
 * TEST_BUDGET_SCALE multiplies them again, by hand, for a machine known to be slower in ways the measure does
 * not see (e.g. 2 on a laptop on battery); CI never sets it.
 */
import { machineSlowness } from './support/machine-slowness';

/**
 * Wall time of each project, from its first file's start to its last file's end: about three times a whole
 * run's on the machine these figures were set on (the twelfth session's, 2026-11-29: unit 13-20 s, components
 * 13-19 s, relay 48-55 s, server 201-231 s, e2e 268-288 s). Twice, until the same machine ran 2.3 times slower an
 * hour later (a fresh clone's server project in 579 s, its e2e project in 591 s; ×2.19 measured at the start):
 * its speed changes within the hour, so it can change within a run after the measure was taken, and the
 * reporter's second measure (judgeBudgets) only sees a slowdown that lasts until the run's end.
 */
export const PROJECT_BUDGET_SECONDS: Readonly<Record<string, number>> = {
  unit: 120,
  // As 'server-isolated': the files of unit and components that keep a process of their own, at the same time.
  'unit-isolated': 120,
  components: 180,
  'components-isolated': 180,
  relay: 180,
  server: 700,
  // The server files that run in a process of their own (vitest.config.ts), among the server files and at
  // the same time: the span from its first file's start to its last one's end is bounded by theirs.
  'server-isolated': 700,
  e2e: 870,
};

/**
 * A file's ceiling unless named below (import, set-up, tests and hooks), on the same footing: at least about
 * three times the time of the project's slowest unnamed file in a whole run here. A single file's time varies
 * far more than a project's with what runs beside it on two cores: in the eleventh session's last CI, the
 * measure predicted its machine 3.3 times slower than this one, and public-site took 7.2 times as long
 * (309 s against 43 s), so a ceiling at 1.6 times a file's usual time failed a green run.
 */
const DEFAULT_FILE_CEILING_SECONDS: Readonly<Record<string, number>> = {
  unit: 60,
  'unit-isolated': 60,
  components: 60,
  'components-isolated': 60,
  // agent.test.ts 30 s.
  relay: 120,
  // dependency-failures 41 s, production-config 37 s, customer-mail 35 s.
  server: 120,
  'server-isolated': 90,
  // wireguard-device 51 s, screens-at-a-glance 49 s, public-site 43 s.
  e2e: 150,
};

/** Files that may take longer than their project's ceiling, each with why and its time in a whole run here. */
const FILE_CEILING_SECONDS: Readonly<Record<string, number>> = {
  // Builds the site once (when its sources changed) and reads every chunk of it.
  'tests/unit/build-output.test.ts': 90,
  // Renewals, lapses and reminders by the local billing clock and the job queue, on both databases (49 s).
  'tests/server/billing-clock.test.ts': 180,
  // Every refund's life through Stripe's stand-in and the job queue's retries, on both databases (70-76 s).
  'tests/server/refund-life.test.ts': 210,
  // Twelve customer journeys through wireguard-go in network namespaces with the real API and agent, each
  // revocation waited for (48-53 s).
  'tests/relay/netns-proof.test.ts': 150,
  // Builds the site and the API as production does, then starts the compiled API (21 s; more where the
  // site's build is not there yet).
  'tests/server/production-build.test.ts': 150,
  // Thirteen sign-in journeys, one with a stack of its own without a Firebase configuration (67 s).
  'tests/e2e/sign-in.test.ts': 200,
  // Every screen at 390 px, the account's with each dialog open (58 s).
  'tests/e2e/phone-layout.test.ts': 180,
  // `npm start` itself: the Auth emulator, maildev, the API and the site (12 s; the emulator's Java start
  // varies most).
  'tests/e2e/local-start.test.ts': 150,
};

export function fileCeilingSeconds(project: string, file: string): number {
  return FILE_CEILING_SECONDS[file] ?? DEFAULT_FILE_CEILING_SECONDS[project] ?? 60;
}

/** TEST_BUDGET_SCALE times the machine's slowness: the one measured before the run unless given. */
export function budgetScale(env: NodeJS.ProcessEnv = process.env, slowness = machineSlowness(env)): number {
  const scale = Number(env.TEST_BUDGET_SCALE ?? '1');
  return (Number.isFinite(scale) && scale > 0 ? scale : 1) * slowness;
}

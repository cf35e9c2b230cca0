/**
 * What the test suite may cost (issue 50, item 4), checked by tests/support/slowest-files-reporter.ts at
 * the end of every run: a file over its ceiling, or a project over its wall-time budget, fails the run
 * with its name and time. The figures are seconds on a quiet two-core machine (CI's kind), with room for
 * a noisy minute; docs/performance.md ("Test budgets") keeps the measurements they come from. A file that
 * needs more than its project's ceiling is named below with the reason; raising a figure is a decision,
 * written in the commit that does it.
 *
 * TEST_BUDGET_SCALE multiplies every figure, for a machine known to be slower (e.g. 2 on a laptop on
 * battery); CI never sets it.
 */

/** Wall time of each project, from its first file's start to its last file's end. */
export const PROJECT_BUDGET_SECONDS: Readonly<Record<string, number>> = {
  unit: 90,
  components: 90,
  server: 240,
  e2e: 240,
  relay: 120,
};

/** A file's ceiling unless named below: its import, set-up, tests and hooks. */
const DEFAULT_FILE_CEILING_SECONDS: Readonly<Record<string, number>> = {
  unit: 30,
  components: 40,
  server: 60,
  e2e: 90,
  relay: 90,
};

/** Files that may take longer than their project's ceiling, each with why. */
const FILE_CEILING_SECONDS: Readonly<Record<string, number>> = {
  // Builds the site and the API as production does, then starts the compiled API.
  'tests/server/production-build.test.ts': 120,
  // `npm start` itself: the Auth emulator, maildev, the API and the site.
  'tests/e2e/local-start.test.ts': 120,
};

export function fileCeilingSeconds(project: string, file: string): number {
  return FILE_CEILING_SECONDS[file] ?? DEFAULT_FILE_CEILING_SECONDS[project] ?? 60;
}

export function budgetScale(env: NodeJS.ProcessEnv = process.env): number {
  const scale = Number(env.TEST_BUDGET_SCALE ?? '1');
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}

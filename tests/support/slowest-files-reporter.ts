/**
 * A Vitest reporter beside the default one (vitest.config.ts): once the run ends, the ten slowest test
 * files, each with its project and the time it took (import, set-up, tests and hooks), so the suite's time
 * is a number we watch (issue 32, item 6). docs/performance.md keeps the history.
 *
 * It also holds the run to its budgets (issue 50, item 4; tests/budgets.ts): a file over its ceiling, or a
 * project whose files took longer than its wall-time budget from the first file's start to the last one's
 * end, fails the run with the file's (or project's) name, its time and its limit. Before it does, it measures
 * the machine again (judgeBudgets).
 *
 * When TEST_FAILURES_FILE names a file (scripts/test.mjs does), what failed and what went over its budget are
 * written there too, one line each, for `npm test` to print last (tests/support/failure-lines.ts).
 */
import { appendFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import { slownessNow } from '../../scripts/lib/machine-speed.mjs';
import { budgetScale, fileCeilingSeconds, PROJECT_BUDGET_SECONDS } from '../budgets';
import { failureLines } from './failure-lines';

const SHOWN = 10;

/** A file's own time: importing it and its set-up files, then every test and hook in it. */
function fileSeconds(module: TestModule): number {
  const d = module.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000;
}

/** A test file's time in a run, with its project. */
type FileTime = { project: string; file: string; seconds: number };

/** What went over its limit, one line each; empty when the run kept to its budgets. */
export function overBudget(
  files: ReadonlyArray<FileTime>,
  projectWalls: ReadonlyMap<string, number>,
  scale: number,
): string[] {
  const lines: string[] = [];
  for (const { project, file, seconds } of files) {
    const ceiling = fileCeilingSeconds(project, file) * scale;
    if (seconds > ceiling) lines.push(`  ${file} (${project}) took ${seconds.toFixed(1)} s, over its ceiling of ${ceiling.toFixed(0)} s`);
  }
  for (const [project, seconds] of projectWalls) {
    const budget = (PROJECT_BUDGET_SECONDS[project] ?? Number.POSITIVE_INFINITY) * scale;
    if (seconds > budget) lines.push(`  the ${project} project took ${seconds.toFixed(1)} s of wall time, over its budget of ${budget.toFixed(0)} s`);
  }
  return lines;
}

/**
 * The run's verdict on its budgets. What is over them at the scale the run started with is judged again at the
 * machine's slowness measured now, when that is larger: a machine of CI's kind slowed 2.3 times within one
 * run (docs/performance.md, "Test budgets"), which is no fault of the suite's. A run that is still over fails.
 * Measured only when something is over, so a run within its budgets pays nothing for it.
 */
export function judgeBudgets(
  files: ReadonlyArray<FileTime>,
  projectWalls: ReadonlyMap<string, number>,
  startScale: number,
  scaleNow: () => number,
): { over: string[]; scale: number } {
  const over = overBudget(files, projectWalls, startScale);
  if (over.length === 0) return { over, scale: startScale };
  const scale = Math.max(startScale, scaleNow());
  return { over: scale > startScale ? overBudget(files, projectWalls, scale) : over, scale };
}

export default class SlowestFilesReporter implements Reporter {
  /** Per project: when its first file started and its last file ended (ms). */
  private readonly spans = new Map<string, { start: number; end: number }>();

  onTestModuleStart(module: TestModule): void {
    const now = Date.now();
    const span = this.spans.get(module.project.name);
    if (span) span.start = Math.min(span.start, now);
    else this.spans.set(module.project.name, { start: now, end: now });
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name);
    if (span) span.end = Math.max(span.end, Date.now());
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const failures = failureLines(testModules, unhandledErrors);
    const over = this.reportTimes(testModules);
    const failuresFile = process.env.TEST_FAILURES_FILE;
    if (failuresFile) appendFileSync(failuresFile, [...failures, ...over].map((line) => `${line}\n`).join(''));
  }

  /** The slowest files and each project's wall time, then the budgets' verdict: the lines over them. */
  private reportTimes(testModules: ReadonlyArray<TestModule>): string[] {
    if (testModules.length === 0) return [];
    const slowest = [...testModules].sort((a, b) => fileSeconds(b) - fileSeconds(a)).slice(0, SHOWN);
    const width = Math.max(...slowest.map((module) => module.project.name.length));
    const lines = slowest.map(
      (module) => `  ${fileSeconds(module).toFixed(1).padStart(7)} s  ${module.project.name.padEnd(width)} ${module.relativeModuleId}`,
    );
    process.stdout.write(`\nThe ${slowest.length} slowest test files (import, set-up, tests and hooks):\n${lines.join('\n')}\n`);

    const walls = new Map([...this.spans].map(([project, { start, end }]) => [project, (end - start) / 1000]));
    process.stdout.write(`Wall time per project: ${[...walls].map(([project, seconds]) => `${project} ${seconds.toFixed(0)} s`).join(', ')}\n`);
    const startScale = budgetScale();
    const { over, scale } = judgeBudgets(
      testModules.map((module) => ({ project: module.project.name, file: module.relativeModuleId, seconds: fileSeconds(module) })),
      walls,
      startScale,
      () => budgetScale(process.env, slownessNow(process.cwd())),
    );
    if (scale > startScale) {
      process.stdout.write(`Over a budget at ×${startScale.toFixed(2)}; the machine, measured again, is ×${scale.toFixed(2)}: the budgets are judged at that\n`);
    }
    if (over.length > 0) {
      process.stderr.write(`\nOver the test budgets at ×${scale.toFixed(2)} (tests/budgets.ts; docs/performance.md, "Test budgets"):\n${over.join('\n')}\n`);
      process.exitCode = 1;
    }
    return over;
  }
}

/**
 * A Vitest reporter beside the default one (vitest.config.ts): once the run ends, the ten slowest test
 * files, each with its project and the time it took (import, set-up, tests and hooks), so the suite's time
 * is a number we watch (issue 32, item 6). docs/performance.md keeps the history.
 */
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

/** A file's own time: importing it and its set-up files, then every test and hook in it. */
function fileSeconds(module: TestModule): number {
  const d = module.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000;
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length === 0) return;
    const slowest = [...testModules].sort((a, b) => fileSeconds(b) - fileSeconds(a)).slice(0, SHOWN);
    const lines = slowest.map(
      (module) => `  ${fileSeconds(module).toFixed(1).padStart(7)} s  ${module.project.name.padEnd(10)} ${module.relativeModuleId}`,
    );
    process.stdout.write(`\nThe ${slowest.length} slowest test files (import, set-up, tests and hooks):\n${lines.join('\n')}\n`);
  }
}

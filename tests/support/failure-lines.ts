/**
 * What failed in a Vitest run, one line each: every failed test, every file or suite that failed outside its
 * tests (an import, a beforeAll), and every error outside any file. The reporter writes them to the file
 * TEST_FAILURES_FILE names (tests/support/slowest-files-reporter.ts), and `npm test` prints both runs' lines
 * last (scripts/test.mjs): CI keeps only a log's tail, and the end-to-end run's output, printed after the
 * other run's, pushed that run's failure out of it (the thirteenth session's stop was red, and its tail
 * showed only passes).
 */

/** An error as Vitest reports it: only its message is read. */
type ReportedError = { readonly message: string };

/** The parts of Vitest's TestCase, TestSuite and TestModule read here (vitest/node's classes fit them). */
type ReportedTest = { readonly fullName: string; result(): { readonly state: string; readonly errors?: ReadonlyArray<ReportedError> } };
type ReportedSuite = { readonly fullName: string; errors(): ReadonlyArray<ReportedError> };
export type ReportedModule = {
  readonly project: { readonly name: string };
  readonly relativeModuleId: string;
  errors(): ReadonlyArray<ReportedError>;
  readonly children: { allTests(): Iterable<ReportedTest>; allSuites(): Iterable<ReportedSuite> };
};

/** A message's first line that says something, shortened to what a log line holds. */
function firstLine(errors: ReadonlyArray<ReportedError> | undefined): string {
  const line = (errors?.[0]?.message ?? '').split('\n').map((part) => part.trim()).find(Boolean) ?? 'no message';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function failureLines(modules: ReadonlyArray<ReportedModule>, unhandled: ReadonlyArray<ReportedError>): string[] {
  const lines: string[] = [];
  for (const module of modules) {
    const where = `${module.relativeModuleId} (${module.project.name})`;
    if (module.errors().length > 0) lines.push(`  ✗ ${where}: the file failed: ${firstLine(module.errors())}`);
    for (const suite of module.children.allSuites()) {
      if (suite.errors().length > 0) lines.push(`  ✗ ${where} > ${suite.fullName}: the suite failed: ${firstLine(suite.errors())}`);
    }
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state === 'failed') lines.push(`  ✗ ${where} > ${test.fullName}: ${firstLine(result.errors)}`);
    }
  }
  for (const error of unhandled) lines.push(`  ✗ an error outside any test: ${firstLine([error])}`);
  return lines;
}

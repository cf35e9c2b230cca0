/**
 * The lines `npm test` prints last (tests/support/failure-lines.ts): each failed test, file, suite and
 * stray error named where a CI log's tail shows it, and nothing for a run that passed.
 */
import { describe, expect, test } from 'vitest';
import { failureLines, type ReportedModule } from '../support/failure-lines';

/** A module as Vitest reports it, built from what the lines read. */
function moduleOf(options: {
  file: string;
  errors?: string[];
  suites?: Array<{ fullName: string; errors: string[] }>;
  tests?: Array<{ fullName: string; state: string; errors?: string[] }>;
}): ReportedModule {
  const asErrors = (messages: string[] = []) => messages.map((message) => ({ message }));
  return {
    project: { name: 'server' },
    relativeModuleId: options.file,
    errors: () => asErrors(options.errors),
    children: {
      allSuites: () => (options.suites ?? []).map((suite) => ({ fullName: suite.fullName, errors: () => asErrors(suite.errors) })),
      allTests: () => (options.tests ?? []).map((t) => ({ fullName: t.fullName, result: () => ({ state: t.state, errors: asErrors(t.errors) }) })),
    },
  };
}

describe('what failed, one line each', () => {
  test('a failed test is named with its file, project and the first line of its error; passed and skipped ones are not', () => {
    const lines = failureLines(
      [
        moduleOf({
          file: 'tests/server/refunds.test.ts',
          tests: [
            { fullName: 'refunds > a refund is made once', state: 'failed', errors: ['\nexpected 2 to be 1 // Object.is equality\n\n- Expected\n+ Received'] },
            { fullName: 'refunds > passes', state: 'passed' },
            { fullName: 'refunds > skipped', state: 'skipped' },
          ],
        }),
      ],
      [],
    );
    expect(lines).toEqual(['  ✗ tests/server/refunds.test.ts (server) > refunds > a refund is made once: expected 2 to be 1 // Object.is equality']);
  });

  test('a file that failed to load, a suite whose beforeAll threw, and an error outside any test are each named', () => {
    const lines = failureLines(
      [
        moduleOf({ file: 'tests/server/broken.test.ts', errors: ['Cannot find module ./gone'] }),
        moduleOf({ file: 'tests/server/setup.test.ts', suites: [{ fullName: 'the API', errors: ['Hook timed out in 10000ms.'] }] }),
      ],
      [{ message: 'EADDRINUSE: address already in use' }],
    );
    expect(lines).toEqual([
      '  ✗ tests/server/broken.test.ts (server): the file failed: Cannot find module ./gone',
      '  ✗ tests/server/setup.test.ts (server) > the API: the suite failed: Hook timed out in 10000ms.',
      '  ✗ an error outside any test: EADDRINUSE: address already in use',
    ]);
  });

  test('a run that passed has no line; a message too long for a log line is cut', () => {
    expect(failureLines([moduleOf({ file: 'tests/server/ok.test.ts', tests: [{ fullName: 'ok', state: 'passed' }] })], [])).toEqual([]);
    const [line] = failureLines([moduleOf({ file: 'a.test.ts', tests: [{ fullName: 'long', state: 'failed', errors: ['x'.repeat(500)] }] })], []);
    expect(line).toBe(`  ✗ a.test.ts (server) > long: ${'x'.repeat(199)}…`);
  });
});

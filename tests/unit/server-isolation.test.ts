/**
 * The server files without isolation (issue 50; tests/support/test-isolation.ts): a file that mocks a module
 * or changes the process runs in a process of its own, the rest share workers. The split is derived from
 * the files at every start of Vitest; these tests hold the rule and its wiring in vitest.config.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import config from '../../vitest.config';
import { BROWSER_SIDE_PROJECTS, NODE_LINE_PROJECTS } from '../../scripts/lib/node-line.mjs';
import { PROJECT_BUDGET_SECONDS } from '../budgets';
import { isolationReasons, splitByIsolation } from '../support/test-isolation';

const root = process.cwd();

describe('which server files keep a process of their own', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'veil-isolation-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(scratch, path, '..'), { recursive: true });
    writeFileSync(join(scratch, path), text);
  };

  test('a mock, a stub, fake timers, tracing or an environment write isolates a file; reading the environment does not', () => {
    write('tests/server/mocks.test.ts', "vi.mock('../../contract/plans', () => ({}));\n");
    write('tests/server/timers.test.ts', 'vi.useFakeTimers();\n');
    write('tests/server/writes-env.test.ts', "process.env.MAIL = 'off';\n");
    write('tests/server/reads-env.test.ts', "const mail = process.env.MAIL === 'off';\nconst port = process.env['PORT'];\n");
    write('tests/server/plain.test.ts', "import { call } from '../support/harness';\ntest('x', () => call());\n");
    write('tests/support/harness.ts', 'export const call = () => 1;\n');
    expect(splitByIsolation(scratch, 'tests/server')).toEqual({
      isolated: ['tests/server/mocks.test.ts', 'tests/server/timers.test.ts', 'tests/server/writes-env.test.ts'],
      shared: ['tests/server/plain.test.ts', 'tests/server/reads-env.test.ts'],
    });
  });

  test('a support module that stubs a global isolates every file importing it, through its own imports too', () => {
    write('tests/server/uses-helper.test.ts', "import { open } from '../support/opener';\n");
    write('tests/support/opener.ts', "export { resolveAgainst as open } from './stubs';\n");
    write('tests/support/stubs.ts', "export const resolveAgainst = () => vi.stubGlobal('fetch', () => null);\n");
    expect(isolationReasons(scratch, 'tests/server/uses-helper.test.ts')).toEqual([
      'through tests/support/stubs.ts: stubbed environment or global: Vitest undoes stubs between tests only when told to, and never between the files of a shared worker',
    ]);
  });

  test("in this repository: changed-plan (its module mock) and zero-log-journey (tracing) are isolated, no shared file mocks", () => {
    const { isolated, shared } = splitByIsolation(root, 'tests/server');
    expect(isolated).toEqual(expect.arrayContaining(['tests/server/changed-plan.test.ts', 'tests/server/zero-log-journey.test.ts']));
    // Read again here, plainly, so a fault in the rule's patterns cannot hide a mock among the shared files.
    for (const file of shared) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/vi\.(do)?mock\(|vi\.stub(Env|Global)\(|vi\.useFakeTimers\(/i);
  });
});

describe('the projects without isolation in vitest.config.ts', () => {
  const projects = (config.test?.projects ?? []) as Array<{ test: { name: string; include?: string[]; exclude?: string[]; isolate?: boolean; globalSetup?: string[] } }>;
  const named = (name: string) => projects.find((project) => project.test.name === name)!.test;

  test('every server file runs in exactly one of the two, the isolated ones in a process of their own', () => {
    const { isolated } = splitByIsolation(root, 'tests/server');
    expect(named('server').isolate).toBe(false);
    expect(named('server').exclude).toEqual(expect.arrayContaining(isolated));
    expect(named('server-isolated').include).toEqual(isolated);
    expect(named('server-isolated').isolate ?? true).toBe(true);
    // One global setup for both, which starts the Auth emulator and the migrated database once.
    expect(named('server-isolated').globalSetup).toEqual(named('server').globalSetup);
  });

  test('unit and components are split the same way; the e2e files share their workers, none of them needing a process of its own', () => {
    for (const [name, dirs] of [
      ['unit', ['tests/machines', 'tests/unit']],
      ['components', ['tests/components']],
    ] as const) {
      const isolated = dirs.flatMap((dir) => splitByIsolation(root, dir).isolated);
      expect(named(name).isolate, name).toBe(false);
      expect(named(name).exclude, name).toEqual(expect.arrayContaining(isolated));
      expect(named(`${name}-isolated`).include, name).toEqual(isolated);
      expect(named(`${name}-isolated`).isolate ?? true, name).toBe(true);
      // Read again plainly, as for the server files above.
      for (const file of dirs.flatMap((dir) => splitByIsolation(root, dir).shared)) {
        expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/vi\.(do)?mock\(|vi\.stub(Env|Global)\(|vi\.useFakeTimers\(/i);
      }
    }
    expect(named('e2e').isolate).toBe(false);
    expect(splitByIsolation(root, 'tests/e2e').isolated).toEqual([]);
  });

  test("CI's second Node line runs every project but the browser's side (scripts/lib/node-line.mjs)", () => {
    expect([...NODE_LINE_PROJECTS, ...BROWSER_SIDE_PROJECTS].sort()).toEqual(projects.map(({ test: project }) => project.name).sort());
  });

  test('every project has a wall-time budget (tests/budgets.ts)', () => {
    for (const { test: project } of projects) expect(PROJECT_BUDGET_SECONDS[project.name], project.name).toBeGreaterThan(0);
  });
});

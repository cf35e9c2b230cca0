/**
 * `npm run lint` runs knip with knip.jsonc: this test runs it on a scratch project with the same config
 * and one unused export, one unused file and one unused dependency, and expects knip to fail on each.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInScratchProject } from '../support/scratch-project';

const FIXTURES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { 'left-pad': '1.3.0' } }),
  'src/routes/index.tsx': "import { used } from '../lib';\nexport const page = used;\n",
  'src/lib.ts': 'export const used = 1;\nexport const neverImported = 2;\n',
  'src/orphan.ts': 'export const orphan = 3;\n',
};

let dir: string;
let report: unknown;
let exitCode: number;

beforeAll(() => {
  const run = runInScratchProject('knip.jsonc', FIXTURES, 'knip', ['--reporter', 'json', '--no-progress']);
  ({ dir, exitCode } = run);
  report = JSON.parse(run.stdout);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run lint fails on dead code (knip)', () => {
  it('exits non-zero', () => {
    expect(exitCode).not.toBe(0);
  });
  it('reports the unused export, the unused file and the unused dependency', () => {
    const issues = JSON.stringify(report);
    expect(issues).toContain('neverImported');
    expect(issues).toContain('src/orphan.ts');
    expect(issues).toContain('left-pad');
    expect(issues).not.toContain('"used"');
  });
});

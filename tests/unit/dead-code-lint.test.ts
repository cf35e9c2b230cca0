/**
 * `npm run lint` runs knip with knip.jsonc: this test runs it on a scratch project with the same config
 * and one unused export, one unused file and one unused dependency, and expects knip to fail on each.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FIXTURES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { 'left-pad': '1.3.0' } }),
  'src/routes/index.tsx': "import { used } from '../lib';\nexport const page = used;\n",
  'src/lib.ts': 'export const used = 1;\nexport const neverImported = 2;\n',
  'src/orphan.ts': 'export const orphan = 3;\n',
};

let dir: string;
let report: { issues: { file: string; exports?: { name: string }[]; dependencies?: { name: string }[] }[]; files?: string[] };
let exitCode = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dead-code-'));
  copyFileSync(join(process.cwd(), 'knip.jsonc'), join(dir, 'knip.jsonc'));
  for (const [path, text] of Object.entries(FIXTURES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const knip = join(process.cwd(), 'node_modules', '.bin', 'knip');
  let output: string;
  try {
    output = execFileSync(knip, ['--reporter', 'json', '--no-progress'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    exitCode = (error as { status: number }).status;
    output = (error as { stdout: string }).stdout;
  }
  report = JSON.parse(output);
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

/**
 * `npm run lint` runs knip with knip.jsonc: this test runs it on a scratch project with the same config
 * and one unused export, one unused file and one unused dependency, and expects knip to fail on each.
 * It also keeps knip's one blind spot out of src/ (issue 49 item 6): an `import()` whose module is not
 * named (`await import('./x');`, a warm-up) reads to knip as a use of every export of it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInScratchProject, treeFiles } from '../support/scratch-project';

const FIXTURES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { 'left-pad': '1.3.0' } }),
  'src/routes/index.tsx': "import { used } from '../lib';\nexport const page = used;\n",
  'src/lib.ts': 'export const used = 1;\nexport const neverImported = 2;\n',
  'src/orphan.ts': 'export const orphan = 3;\n',
  // Two modules loaded ahead of time: one by a bare import(), one naming what it takes.
  'src/routes/warm.tsx': "export async function warm() {\n  await import('../bare');\n  const { named: _taken } = await import('../named');\n}\n",
  'src/bare.ts': 'export const bareUsed = 1;\nexport const hiddenDead = 2;\n',
  'src/named.ts': 'export const named = 1;\nexport const seenDead = 2;\n',
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

describe("knip's blind spot: an import() whose result is not named", () => {
  it('hides a dead export from knip, where naming what it takes does not', () => {
    const issues = JSON.stringify(report);
    expect(issues).toContain('seenDead');
    expect(issues).not.toContain('hiddenDead');
  });

  it('is in src/ only for a module with no exports (an entry, as src/boot.ts loads src/main.tsx)', () => {
    const files = treeFiles();
    const bare = files
      .filter((file) => /^(src|server|machines|contract|scripts)\/.*\.(tsx?|mjs)$/.test(file))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/(?:^|\belse|\)|;)\s*(?:await\s+|void\s+)?import\('(\.[^']*)'\)\s*;/gm)].map((match) => ({
          file,
          target: files.find((path) => ['.ts', '.tsx', '.mjs', ''].some((extension) => path === posix.join(posix.dirname(file), match[1]!) + extension))!,
        })),
      );
    expect(bare.map(({ target }) => target)).toEqual(expect.arrayContaining(['src/main.tsx']));
    expect(bare.filter(({ target }) => /^export /m.test(readFileSync(target, 'utf8'))).map(({ file, target }) => `${file} -> ${target}`)).toEqual([]);
  });
});

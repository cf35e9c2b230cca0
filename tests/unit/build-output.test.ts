/**
 * What the production build must and must not contain: the inspector is development-only, and the
 * home page's first load carries no Firebase code (scripts/size.mjs measures and enforces the budget).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureSpaBuilt } from '../../scripts/lib/spa-build.mjs';
import { homePageChunks } from '../../scripts/size.mjs';

const root = process.cwd();
const assets = join(root, 'dist', 'assets');

beforeAll(async () => {
  await ensureSpaBuilt(root, () => {});
}, 120_000);

describe('production build', () => {
  test('contains no trace of the Stately inspector', () => {
    for (const file of readdirSync(assets).filter((name) => name.endsWith('.js'))) {
      const text = readFileSync(join(assets, file), 'utf8');
      expect(text, file).not.toContain('createBrowserInspector');
      expect(text, file).not.toContain('stately.ai');
    }
  });

  test('the home page loads no Firebase code, which still ships in lazy chunks for sign-in', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'dist', '.vite', 'manifest.json'), 'utf8'));
    const home = homePageChunks(manifest);
    expect(home.length).toBeGreaterThan(0);
    const firebaseIn = (file: string) => readFileSync(join(root, 'dist', file), 'utf8').includes('identitytoolkit');
    expect(home.filter(firebaseIn)).toEqual([]);
    const all = readdirSync(assets).filter((name) => name.endsWith('.js')).map((name) => `assets/${name}`);
    expect(all.some(firebaseIn)).toBe(true);
  });
});

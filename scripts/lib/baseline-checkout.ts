/**
 * An older commit of this repository, ready to run beside the current one (`BENCH_BASELINE=<commit>` of
 * `npm run bench:api`): its files from `git archive` in a temporary folder, and a node_modules made of
 * links to this checkout's packages. A package the old commit declares and this checkout no longer has
 * (e.g. @fastify/helmet before issue 32) is installed for it alone, from the registry, at the old range.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BaselineCheckout {
  dir: string;
  /** Its server entry (server/main.ts). */
  entry: string;
  remove: () => void;
}

export function baselineCheckout(root: string, commit: string): BaselineCheckout {
  const dir = mkdtempSync(join(tmpdir(), `veil-baseline-${commit.slice(0, 7)}-`));
  execFileSync('sh', ['-c', `git -C "${root}" archive "${commit}" | tar -x -C "${dir}"`], { stdio: 'inherit' });
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  // Scoped folders are real folders of links, so a missing scoped package can be added beside the others.
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry.startsWith('@')) {
      mkdirSync(join(modules, entry));
      for (const inner of readdirSync(join(root, 'node_modules', entry))) symlinkSync(join(root, 'node_modules', entry, inner), join(modules, entry, inner));
    } else {
      symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
    }
  }
  const declared = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const missing = Object.entries(declared.dependencies ?? {}).filter(([name]) => !existsSync(join(modules, name)));
  if (missing.length > 0) {
    const extra = join(dir, '.baseline-packages');
    mkdirSync(extra);
    execFileSync('npm', ['install', '--prefix', extra, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', ...missing.map(([name, range]) => `${name}@${range}`)], {
      stdio: 'inherit',
    });
    for (const [name] of missing) symlinkSync(join(extra, 'node_modules', name), join(modules, name));
  }
  return { dir, entry: join(dir, 'server', 'main.ts'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * Writes `files` into a new scratch folder beside a copy of one of this repository's config files, runs a
 * tool of node_modules/.bin there and returns its stdout and exit code (the lint tools exit 1 on findings).
 */
export function runInScratchProject(config: string, files: Record<string, string>, tool: string, args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), `${tool}-`));
  copyFileSync(join(process.cwd(), config), join(dir, config));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  try {
    const stdout = execFileSync(join(process.cwd(), 'node_modules', '.bin', tool), args, { cwd: dir, encoding: 'utf8' });
    return { dir, stdout, exitCode: 0 };
  } catch (error) {
    const { stdout, status } = error as { stdout: string; status: number };
    return { dir, stdout, exitCode: status };
  }
}

interface Diagnostic {
  code: string;
  filename: string;
}

/** The files of the work tree as git sees them (tracked, and new ones not ignored), whole paths from its root. */
export function treeFiles(root = process.cwd()): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '' && existsSync(join(root, path)));
}

const RESOLVED_EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'];

/** The relative imports of `files` that name no file of the tree (nor another of `files`). */
function importsOfNothing(tree: Set<string>, files: Record<string, string>): string[] {
  const missing: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    for (const [, specifier] of text.matchAll(/(?:from |import\()'(\.[^']*)'/g)) {
      const target = posix.join(posix.dirname(path), specifier!);
      if (!RESOLVED_EXTENSIONS.some((extension) => tree.has(target + extension) || target + extension in files)) {
        missing.push(`${path}: '${specifier}'`);
      }
    }
  }
  return missing;
}

/**
 * Lints `probes` (small files, each at a path inside the real tree) with oxlint and this repository's
 * .oxlintrc.json, in a copy of the work tree's source folders made before the calling file's tests and removed
 * after them: the probes import REAL modules of the tree, beside the real files, and the copy keeps the work
 * tree untouched while other test files read it. A probe that imports a path the tree does not hold fails
 * the set-up, so a renamed folder fails the layering tests rather than leaving them proving nothing.
 * `codesFor(probe)` answers the rule codes oxlint reported for one probe.
 */
export function useOxlintOnTheTree(probes: Record<string, string>): { codesFor: (probe: string) => string[] } {
  let dir = '';
  let diagnostics: Diagnostic[] = [];
  beforeAll(() => {
    const root = process.cwd();
    const files = treeFiles(root);
    const tree = new Set(files);
    const clashes = Object.keys(probes).filter((path) => tree.has(path));
    const missing = importsOfNothing(tree, probes);
    if (clashes.length > 0 || missing.length > 0) {
      throw new Error(`Probes that stand on a real file: ${clashes.join(', ') || 'none'}; imports of no file of the tree: ${missing.join(', ') || 'none'}`);
    }
    dir = mkdtempSync(join(tmpdir(), 'oxlint-tree-'));
    const copied = files.filter((path) => /^(src|machines|server|contract|relay)\//.test(path) || ['.oxlintrc.json', 'tsconfig.json', 'package.json'].includes(path));
    for (const path of copied) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      copyFileSync(join(root, path), join(dir, path));
    }
    for (const [path, text] of Object.entries(probes)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    let stdout: string;
    try {
      stdout = execFileSync(join(root, 'node_modules', '.bin', 'oxlint'), ['--format', 'json', ...Object.keys(probes)], { cwd: dir, encoding: 'utf8' });
    } catch (error) {
      stdout = (error as { stdout: string }).stdout;
    }
    diagnostics = (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return { codesFor: (probe) => diagnostics.filter((d) => d.filename === probe || d.filename.endsWith(`/${probe}`)).map((d) => d.code) };
}

/** A probe's text: it imports `specifier`, and nothing else. */
export const importing = (specifier: string) => `import * as imported from '${specifier}';\nexport const probe = imported;\n`;

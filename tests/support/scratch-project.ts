import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

/**
 * Lints `files` with oxlint and this repository's .oxlintrc.json, in a scratch project made before the calling
 * file's tests and removed after them: how the layering tests show that `npm run lint` refuses each rule.
 * `codesFor(file)` answers the rule codes oxlint reported for one of the files.
 */
export function useOxlintOn(files: Record<string, string>): { codesFor: (file: string) => string[] } {
  let dir = '';
  let diagnostics: Diagnostic[] = [];
  beforeAll(() => {
    const run = runInScratchProject('.oxlintrc.json', files, 'oxlint', ['--format', 'json', '.']);
    dir = run.dir;
    diagnostics = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { codesFor: (file) => diagnostics.filter((d) => d.filename.endsWith(file)).map((d) => d.code) };
}

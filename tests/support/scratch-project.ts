import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

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

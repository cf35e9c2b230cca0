/**
 * Issue 33 item 4: one writer of the stored session token. The browser's storage of it is written and cleared
 * only by the session machine's actions (src/app/flows/session-services.ts, `storeSessionToken` and
 * `clearStoredSession`); a sign-in hands the session to the session machine, an account deletion ends it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const WRITES = /\bstorage\.(setSessionToken|clearSession)\(/g;

describe('the stored session token has one writer', () => {
  it('only the session machine’s browser actions write or clear it', () => {
    const writers = sourceFiles(join(process.cwd(), 'src'))
      .filter((file) => !file.endsWith(join('services', 'storage.ts')))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(WRITES)].map((match) => `${relative(process.cwd(), file)}: ${match[1]}`));
    expect(writers.sort()).toEqual(['src/app/flows/session-services.ts: clearSession', 'src/app/flows/session-services.ts: setSessionToken']);
  });
});

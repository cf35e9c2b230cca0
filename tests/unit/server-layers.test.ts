/**
 * The server's layers (docs/architecture.md, "Server"): every SQL statement lives in server/domain, so
 * only server/domain, server/db and the job queue's adapter (server/jobs) may use drizzle or name the tables, and server/http never imports
 * server/db (types included: the domain re-exports what routes need).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const imports = (file: string) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map((match) => match[1]!);

describe('server layers', () => {
  test('outside server/domain and server/db no module uses drizzle or the table definitions', () => {
    // server/main.ts and server/assemble.ts (which main.ts calls) are where the process opens the database
    // and hands it to buildApp; server/jobs is the job queue's storage adapter, which must enqueue inside
    // the caller's drizzle transaction.
    const storage = ['server/domain/', 'server/db/', 'server/jobs/'];
    const compositionRoots = ['server/main.ts', 'server/assemble.ts'];
    const offenders = sources('server')
      .filter((file) => !storage.some((dir) => file.startsWith(dir)) && !compositionRoots.includes(file))
      .flatMap((file) =>
        imports(file)
          .filter((from) => from.startsWith('drizzle-orm') || /\/db\/(schema|database)\.ts$/.test(from))
          .map((from) => `${file} imports ${from}`),
      );
    expect(offenders).toEqual([]);
  });

  test("server/domain never names the job queue's storage: it asks the JobSender port (issue 49, item 2)", () => {
    // pg-boss's schema and its `job` table are the jobs adapter's (server/jobs/queue.ts); a domain module that
    // reads them by queue name and payload key couples the rules to the queue's storage.
    const offenders = sources('server/domain').flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return [/\bjobSchema\b/.test(text) && 'names jobSchema', /\}\s*\.job\b|"\.job\b|\bpgboss\b/.test(text) && "names the queue's job table"]
        .filter((reason): reason is string => reason !== false)
        .map((reason) => `${file} ${reason}`);
    });
    expect(offenders).toEqual([]);
  });

  test('server/http never imports server/db', () => {
    const offenders = sources('server/http').flatMap((file) =>
      imports(file)
        .filter((from) => from.includes('/db/'))
        .map((from) => `${file} imports ${from}`),
    );
    expect(offenders).toEqual([]);
  });

  test('routes are handed domain calls, never the database handle (issue 24)', () => {
    // AppDeps (server/http/context.ts) carries no database, and no route module reads one from its deps:
    // a route with `deps.database` could run `exec(sql)` without a single import.
    const offenders = sources('server/http').flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const found = [
        /\bdeps\.database\b/.test(text) && 'reads deps.database',
        /\{[^}]*\bdatabase\b[^}]*\}\s*=\s*deps\b/.test(text) && 'destructures database from deps',
        /^\s*database\??\s*:/m.test(text) && file === 'server/http/context.ts' && 'AppDeps declares database',
        /\bimport\b[^;]*\bDatabase\b[^;]*from\s+'[^']*\/store\.ts'/.test(text) && 'imports the Database type',
      ];
      return found.filter((reason): reason is string => reason !== false).map((reason) => `${file} ${reason}`);
    });
    expect(offenders).toEqual([]);
  });
});

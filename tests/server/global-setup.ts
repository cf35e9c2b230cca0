import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migratePgliteFolder } from '../support/migrated-pglite';
import { startAuthEmulator, type RunningEmulator } from '../support/auth-emulator';

/** One Firebase Auth emulator for every server test file (port 9199, apart from `npm start`'s 9099). */
let emulator: RunningEmulator | undefined;
let templateDir: string | undefined;

export async function setup(project: TestProject) {
  const [started, template] = await Promise.all([startAuthEmulator(Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9199)), migratedPgliteDump()]);
  emulator = started;
  project.provide('authEmulatorHost', emulator.host);
  project.provide('pgliteTemplate', template.file);
  project.provide('pgliteTemplateDir', template.dataDir);
}

export async function teardown() {
  await emulator?.stop();
  if (templateDir) rmSync(templateDir, { recursive: true, force: true });
}

/**
 * A migrated PGlite database (the app's tables and pg-boss's), made once for the whole run and dumped to a
 * file: each in-memory test API starts from the dump, each one on a data folder from a copy of the folder
 * (tests/support/server-harness.ts), instead of running PGlite's initdb and every migration again, which took
 * 2.5 to 5 s per API, hundreds of times a run.
 */
async function migratedPgliteDump(): Promise<{ file: string; dataDir: string }> {
  templateDir = mkdtempSync(join(tmpdir(), 'veil-pglite-template-'));
  const dataDir = join(templateDir, 'data');
  await migratePgliteFolder(dataDir);
  const client = new PGlite(dataDir);
  // dumpDataDir before the database is ready never settles (PGlite 0.5).
  await client.waitReady;
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = join(templateDir, 'migrated.tar');
  writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  return { file, dataDir };
}

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
    /** The file tests/server/global-setup.ts dumped a migrated PGlite database to. */
    pgliteTemplate: string;
    /** The migrated PGlite data folder that dump was taken from (copied by migratedDataDir, server-harness.ts). */
    pgliteTemplateDir: string;
  }
}

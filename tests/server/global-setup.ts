import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migratePgliteFolder } from '../support/migrated-pglite';
import { startAuthEmulator, type RunningEmulator } from '../support/auth-emulator';

/** What the server projects share: one Firebase Auth emulator (TEST_AUTH_EMULATOR_PORT) and one migrated PGlite. */
interface Services {
  emulator: RunningEmulator;
  template: { file: string; dataDir: string; dir: string };
}

/**
 * Both server projects (vitest.config.ts: the isolated files and the shared ones) name this file, and Vitest
 * runs a project's global setup once per project, each from a module of its own: a second emulator on the
 * same port would refuse to start. The first setup starts the services, on the main process's globalThis
 * (the one thing the two modules share); the next one reuses them, and the last teardown stops them.
 */
const SHARED = Symbol.for('veil.serverTestServices');
type Shared = { services: Promise<Services>; users: number };
const holder = globalThis as { [SHARED]?: Shared };

export async function setup(project: TestProject) {
  const shared = (holder[SHARED] ??= { services: startServices(), users: 0 });
  shared.users += 1;
  const { emulator, template } = await shared.services;
  project.provide('authEmulatorHost', emulator.host);
  project.provide('pgliteTemplate', template.file);
  project.provide('pgliteTemplateDir', template.dataDir);
}

export async function teardown() {
  const shared = holder[SHARED];
  if (!shared || --shared.users > 0) return;
  delete holder[SHARED];
  const { emulator, template } = await shared.services;
  await emulator.stop();
  rmSync(template.dir, { recursive: true, force: true });
}

async function startServices(): Promise<Services> {
  const [emulator, template] = await Promise.all([startAuthEmulator(Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9199)), migratedPgliteDump()]);
  return { emulator, template };
}

/**
 * A migrated PGlite database (the app's tables and pg-boss's), made once for the whole run and dumped to a
 * file: each in-memory test API starts from the dump, each one on a data folder from a copy of the folder
 * (tests/support/server-harness.ts), instead of running PGlite's initdb and every migration again, which took
 * 2.5 to 5 s per API, hundreds of times a run.
 */
async function migratedPgliteDump(): Promise<Services['template']> {
  const templateDir = mkdtempSync(join(tmpdir(), 'veil-pglite-template-'));
  const dataDir = join(templateDir, 'data');
  await migratePgliteFolder(dataDir);
  const client = new PGlite(dataDir);
  // dumpDataDir before the database is ready never settles (PGlite 0.5).
  await client.waitReady;
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = join(templateDir, 'migrated.tar');
  writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  return { file, dataDir, dir: templateDir };
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

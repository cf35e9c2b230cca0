import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureSpaBuilt } from '../../scripts/lib/spa-build.mjs';
import { migratePgliteFolder } from '../support/migrated-pglite';
import { startAuthEmulator, type RunningEmulator } from '../support/auth-emulator';
import { resolveChromiumPath } from '../support/chromium-path';
import { POOLED_STACK_ENV } from '../support/pooled-stack-env';
import { startStackPool, type StackPool } from '../support/stack-pool';

let emulator: RunningEmulator | undefined;
let migratedDataDir: string | undefined;
let pool: StackPool | undefined;

/**
 * The end-to-end suite runs against the production build (rebuilt only when its sources changed) and
 * one Firebase Auth emulator on port 9299, apart from `npm start`'s 9099 and the server suite's 9199.
 */
export async function setup(project: TestProject) {
  // Resolved once here, not in each test file (the npm-shipped build unpacks itself on first use), and
  // first, so a missing browser fails before anything is started.
  const chromiumPath = await resolveChromiumPath();
  const [started, migrated] = await Promise.all([
    startAuthEmulator(Number(process.env.E2E_AUTH_EMULATOR_PORT ?? 9299)),
    migratedPgliteFolder(),
    ensureSpaBuilt(process.cwd(), (message: string) => console.log(`[e2e] ${message}`)),
  ]);
  emulator = started;
  console.log(`[e2e] Chromium: ${chromiumPath}`);
  // The APIs the files lease (one per worker, tests/support/stack-pool.ts), made on the first lease.
  pool = await startStackPool({ env: { FIREBASE_AUTH_EMULATOR_HOST: emulator.host, ...POOLED_STACK_ENV }, startFrom: migrated });
  project.provide('chromiumPath', chromiumPath);
  project.provide('e2eAuthEmulatorHost', emulator.host);
  project.provide('e2eMigratedDataDir', migrated);
  project.provide('e2eStackPool', pool.endpoint);
}

export async function teardown() {
  await pool?.stop();
  await emulator?.stop();
  if (migratedDataDir) rmSync(migratedDataDir, { recursive: true, force: true });
}

/**
 * A PGlite data folder with every migration applied (the app's tables and pg-boss's), made once per run: each
 * file's API starts on a copy of it (tests/support/stack.ts) instead of running PGlite's initdb and the
 * migrations itself, seconds of CPU each on a machine the whole suite keeps busy.
 */
async function migratedPgliteFolder(): Promise<string> {
  migratedDataDir = mkdtempSync(join(tmpdir(), 'veil-e2e-migrated-'));
  await migratePgliteFolder(migratedDataDir);
  return migratedDataDir;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eAuthEmulatorHost: string;
    chromiumPath: string;
    /** A migrated PGlite data folder for each file's API to copy (tests/support/stack.ts). */
    e2eMigratedDataDir: string;
    /** Where the files lease their worker's stack (tests/support/stack-pool.ts). */
    e2eStackPool: string;
  }
}

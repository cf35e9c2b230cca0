import type { TestProject } from 'vitest/node';
import { ensureSpaBuilt } from '../../scripts/lib/spa-build.mjs';
import { startAuthEmulator, type RunningEmulator } from '../support/auth-emulator';
import { resolveChromiumPath } from '../support/chromium-path';

let emulator: RunningEmulator | undefined;

/**
 * The end-to-end suite runs against the production build (rebuilt only when its sources changed) and
 * one Firebase Auth emulator on port 9299, apart from `npm start`'s 9099 and the server suite's 9199.
 */
export async function setup(project: TestProject) {
  // Resolved once here, not in each test file (the npm-shipped build unpacks itself on first use), and
  // first, so a missing browser fails before anything is started.
  const chromiumPath = await resolveChromiumPath();
  const [started] = await Promise.all([
    startAuthEmulator(Number(process.env.E2E_AUTH_EMULATOR_PORT ?? 9299)),
    ensureSpaBuilt(process.cwd(), (message: string) => console.log(`[e2e] ${message}`)),
  ]);
  emulator = started;
  console.log(`[e2e] Chromium: ${chromiumPath}`);
  project.provide('chromiumPath', chromiumPath);
  project.provide('e2eAuthEmulatorHost', emulator.host);
}

export async function teardown() {
  await emulator?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eAuthEmulatorHost: string;
    chromiumPath: string;
  }
}

import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { ensureSpaBuilt } from '../../scripts/lib/spa-build.mjs';
import { startAuthEmulator, type RunningEmulator } from '../support/auth-emulator';
import { CHROMIUM_PATH } from '../support/browser';

let emulator: RunningEmulator | undefined;

/**
 * The end-to-end suite runs against the production build (rebuilt only when its sources changed) and
 * one Firebase Auth emulator on port 9299, apart from `npm start`'s 9099 and the server suite's 9199.
 */
export async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it with 'apt-get install -y chromium'.`);
  }
  const [started] = await Promise.all([
    startAuthEmulator(Number(process.env.E2E_AUTH_EMULATOR_PORT ?? 9299)),
    ensureSpaBuilt(process.cwd(), (message: string) => console.log(`[e2e] ${message}`)),
  ]);
  emulator = started;
  project.provide('e2eAuthEmulatorHost', emulator.host);
}

export async function teardown() {
  await emulator?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eAuthEmulatorHost: string;
  }
}

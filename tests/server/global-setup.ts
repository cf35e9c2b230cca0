import type { TestProject } from 'vitest/node';
import { startAuthEmulator, type RunningEmulator } from '../support/auth-emulator';

/** One Firebase Auth emulator for every server test file (port 9199, apart from `npm start`'s 9099). */
let emulator: RunningEmulator | undefined;

export async function setup(project: TestProject) {
  emulator = await startAuthEmulator(Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9199));
  project.provide('authEmulatorHost', emulator.host);
}

export async function teardown() {
  await emulator?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}

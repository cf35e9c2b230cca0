/**
 * This machine's slowness against the machine the suite's budgets and timeouts were set on
 * (scripts/lib/machine-speed.mjs), as scripts/test.mjs or vitest.config.ts measured it before the workers
 * started; 1 where neither did.
 */
import { givenSlowness } from '../../scripts/lib/machine-speed.mjs';

export function machineSlowness(env: NodeJS.ProcessEnv = process.env): number {
  return givenSlowness(env) ?? 1;
}

/** A timeout given in the reference machine's milliseconds, on this machine. */
export function onThisMachine(ms: number): number {
  return Math.round(ms * machineSlowness());
}

export const REFERENCE_MS: number;
export function slownessOf(measuredMs: number): number;
export function givenSlowness(env?: NodeJS.ProcessEnv): number | undefined;
export function slownessNow(root: string): number;
export function machineSlowness(root: string, env?: NodeJS.ProcessEnv): number;

export function spaIsStale(root: string): boolean;
export function buildSpa(root: string, env?: Record<string, string>): Promise<void>;
export function ensureSpaBuilt(root: string, log?: (message: string) => void): Promise<boolean>;

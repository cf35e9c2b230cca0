/**
 * How long to wait before the next try after `failures` failures in a row: exponential from `baseMs`,
 * capped at `maxMs`, with jitter (a random half to whole of it), so a hundred servers that lost the API at
 * the same moment do not all come back at the same moment. Pure: `random` is handed in.
 */
export function backoffDelayMs(failures: number, { baseMs, maxMs }: { baseMs: number; maxMs: number }, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
  return Math.round(exponential * (0.5 + random() * 0.5));
}

/** What every bench prints its figures with: medians over rounds, and the machine's load average. */
import { loadavg } from 'node:os';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The 1, 5 and 15 minute load averages, as "0.52 0.61 0.70". */
export const loadAverage = () => loadavg().map((value) => value.toFixed(2)).join(' ');

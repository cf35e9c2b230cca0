/**
 * One timer at the earliest expiresAt among the wanted peers: when it fires the agent removes every key whose
 * time has come, by itself, whether or not the API can be reached. Timers are capped (setTimeout takes at
 * most ~24.8 days), so a far date just fires early, finds nothing due and sets the next timer.
 */
const LONGEST_TIMER_MS = 3_600_000;

export interface ExpiryScheduler {
  /** Fire `onDue` at `atMs` (epoch ms), or never when null; replaces any earlier schedule. */
  schedule(atMs: number | null): void;
  stop(): void;
}

export function expiryScheduler(onDue: () => void, now: () => number = Date.now): ExpiryScheduler {
  let timer: NodeJS.Timeout | undefined;
  return {
    schedule(atMs) {
      clearTimeout(timer);
      timer = undefined;
      if (atMs === null) return;
      timer = setTimeout(onDue, Math.max(0, Math.min(atMs - now(), LONGEST_TIMER_MS)));
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

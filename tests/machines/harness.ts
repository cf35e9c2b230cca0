/** Helpers for the scenario tests: controllable fake actors and recorded named actions. */
import { vi } from 'vitest';

interface Call {
  type: string;
  params: unknown;
}

/** Records calls of named actions: `actions: rec.actions('showToast', 'navigate')`. */
export function recorder() {
  const calls: Call[] = [];
  return {
    calls,
    actions<const N extends string>(...names: N[]): Record<N, (args: unknown, params: unknown) => void> {
      return Object.fromEntries(
        names.map((name) => [
          name,
          (_args: unknown, params: unknown) => {
            calls.push({ type: name, params });
          },
        ]),
      ) as unknown as Record<N, (args: unknown, params: unknown) => void>;
    },
    of(type: string): unknown[] {
      return calls.filter((call) => call.type === type).map((call) => call.params);
    },
    types(): string[] {
      return calls.map((call) => call.type);
    },
  };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets settled promises and zero-delay timers run (fake timers are installed by each test file). */
export const flush = () => vi.advanceTimersByTimeAsync(0);

import type { ChildProcess } from 'node:child_process';

export interface Run {
  command: string;
  args: string[];
  /** Added to the environment both runs get, for this run only. */
  env?: Record<string, string>;
}

export function runSideBySide(options: {
  shown: Run;
  held: Run;
  heading: string;
  env?: NodeJS.ProcessEnv;
  out?: { write(chunk: string | Uint8Array): unknown };
  err?: { write(chunk: string | Uint8Array): unknown };
}): { done: Promise<number>; children: ChildProcess[] };

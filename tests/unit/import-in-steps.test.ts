/**
 * src/app/boot/import-in-steps.ts (issue 32 item 4): the session's code is evaluated in parts, one per task
 * (src/app/actors/app-actors.ts), so a phone's main thread is free to paint and answer a tap between them.
 */
import { describe, expect, test } from 'vitest';
import { importInSteps } from '../../src/app/boot/import-in-steps';

describe('importInSteps', () => {
  test('runs each step in turn, with a new task between two steps', async () => {
    const seen: string[] = [];
    await importInSteps([
      async () => {
        seen.push('first step');
        // A task queued by the first step (a paint, a tap) runs before the second step starts.
        setTimeout(() => seen.push('a task queued meanwhile'), 0);
      },
      async () => {
        seen.push('second step');
      },
    ]);
    expect(seen).toEqual(['first step', 'a task queued meanwhile', 'second step']);
  });

  test('waits for a step before starting the next, and stops at a failed one', async () => {
    const seen: string[] = [];
    const failure = importInSteps([
      () => new Promise((resolve) => setTimeout(() => resolve(seen.push('slow step done')), 5)),
      () => Promise.reject(new Error('chunk failed to load')),
      async () => seen.push('never reached'),
    ]);
    await expect(failure).rejects.toThrow('chunk failed to load');
    expect(seen).toEqual(['slow step done']);
  });
});

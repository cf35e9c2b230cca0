/**
 * src/app/boot/main-thread.ts (issues 25 and 32): start-up work after the first paint is cut into tasks, so
 * a phone's main thread is free to paint and answer a tap between them (the session's code in two tasks,
 * src/app/actors/app-actors.ts; the router made apart from its first match, src/main.tsx).
 */
import { describe, expect, test } from 'vitest';
import { yieldToMain } from '../../src/app/boot/main-thread';

describe('yieldToMain', () => {
  test('a task queued before the yield (a paint, a tap) runs before the caller goes on', async () => {
    const seen: string[] = [];
    seen.push('first part');
    setTimeout(() => seen.push('a task queued meanwhile'), 0);
    // A resolved promise would not do: the caller would go on before the queued task.
    await yieldToMain();
    seen.push('second part');
    expect(seen).toEqual(['first part', 'a task queued meanwhile', 'second part']);
  });
});

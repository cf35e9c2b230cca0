/**
 * Issue 34: the in-memory rate-limit counter (no REDIS_URL, or while Redis is away) does constant work per
 * request however many client addresses are live; a scan of the whole map above 50,000 keys cost about
 * 1.25 ms per request, reachable by rotating IPv6 /64s. Counted by the entries each hit visits.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { memoryCounter } from '../../server/http/rate-limits';

type Window = { count: number; endsAt: number };

/** A Map that counts the entries iterated over. */
class CountingMap extends Map<string, Window> {
  visited = 0;
  override *[Symbol.iterator](): MapIterator<[string, Window]> {
    for (const entry of super.entries()) {
      this.visited += 1;
      yield entry;
    }
  }
  override entries() {
    return this[Symbol.iterator]();
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the in-memory rate-limit counter', () => {
  test('above 50,000 live addresses a request visits a handful of entries, not the whole map', async () => {
    const windows = new CountingMap();
    const counter = memoryCounter(windows);
    for (let address = 0; address < 60_000; address += 1) await counter.hit(`2001:db8:${address.toString(16)}::/64`);
    windows.visited = 0;
    for (let request = 0; request < 1000; request += 1) await counter.hit(`2001:db8:ffff:${request.toString(16)}::/64`);
    expect(windows.size).toBe(61_000);
    expect(windows.visited).toBeLessThanOrEqual(1000);
  });

  test('ended windows are dropped and a key counts afresh in a new window', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
    const windows = new CountingMap();
    const counter = memoryCounter(windows);
    expect((await counter.hit('a')).count).toBe(1);
    vi.advanceTimersByTime(30_000);
    expect((await counter.hit('b')).count).toBe(1);
    expect((await counter.hit('a')).count).toBe(2);
    vi.advanceTimersByTime(31_000);
    // a's window ended; b's runs until 90 s.
    expect(await counter.hit('a')).toEqual({ count: 1, ttlMs: 60_000 });
    expect([...windows.keys()]).toEqual(['b', 'a']);
    vi.advanceTimersByTime(30_000);
    expect((await counter.hit('c')).count).toBe(1);
    expect([...windows.keys()]).toEqual(['a', 'c']);
  });
});

/**
 * scripts/lib/long-tasks.ts, what `npm run bench:tasks` reads from a trace: only the renderer's main thread,
 * only tasks after the first paint, each counted as Lighthouse counts it at a 4x slower CPU.
 */
import { expect, test } from 'vitest';
import { longTaskFigures, type TraceEvent } from '../../scripts/lib/long-tasks';

const MAIN = { pid: 7, tid: 1 };
const OTHER_RENDERER = { pid: 8, tid: 1 };
const at = (ms: number) => 1_000_000 + ms * 1000;
const task = (startMs: number, durationMs: number, thread = MAIN): TraceEvent => ({ name: 'RunTask', ph: 'X', ts: at(startMs), dur: durationMs * 1000, ...thread });
const mark = (name: string, ms: number, thread = MAIN): TraceEvent => ({ name, ph: 'R', ts: at(ms), ...thread });

test('counts the main thread\'s tasks after the first paint as 4 × duration − 50 ms when they would pass 50 ms', () => {
  const events: TraceEvent[] = [
    { name: 'thread_name', ph: 'M', ts: 0, args: { name: 'CrRendererMain' }, ...MAIN },
    { name: 'thread_name', ph: 'M', ts: 0, args: { name: 'CrRendererMain' }, ...OTHER_RENDERER },
    mark('navigationStart', 0),
    // Before the first paint: not counted, however long.
    task(100, 120),
    mark('firstContentfulPaint', 300),
    task(310, 30), // 4 × 30 − 50 = 70
    task(400, 12), // 48 at 4x: not blocking
    task(500, 20), // 4 × 20 − 50 = 30
    mark('largestContentfulPaint::Candidate', 450),
    mark('largestContentfulPaint::Candidate', 900),
    // Another renderer (an extension, a frame) with fewer tasks: not the page's.
    task(320, 400, OTHER_RENDERER),
  ];
  expect(longTaskFigures(events)).toEqual({ fcpMs: 300, lcpMs: 900, longTasks: 2, tbtAt4xMs: 100, longestMs: 30 });
});

test('refuses a trace in which the page never painted', () => {
  const events: TraceEvent[] = [{ name: 'thread_name', ph: 'M', ts: 0, args: { name: 'CrRendererMain' }, ...MAIN }, task(10, 5)];
  expect(() => longTaskFigures(events)).toThrow('never painted');
});

/**
 * What `npm run bench:tasks` reads from a Chromium performance trace (issue 32 item 4): the renderer's main
 * thread, its First and Largest Contentful Paint, and its tasks after the first paint, counted as Lighthouse's
 * Total Blocking Time counts them at its 4x CPU slowdown (a task of d ms there lasts 4d; what passes 50 ms blocks).
 */

/** A trace event as Chromium's `Tracing.dataCollected` reports it (the fields read here). */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** Microseconds. */
  ts: number;
  dur?: number;
  args?: { name?: string; data?: unknown };
}

export interface LongTaskFigures {
  /** From the navigation's start, as observed (no throttling). */
  fcpMs: number;
  lcpMs: number;
  /** Tasks after the first paint that would pass 50 ms at 4x (longer than 12.5 ms here). */
  longTasks: number;
  /** Their sum of 4 × duration − 50 ms: Lighthouse's TBT without its network simulation. */
  tbtAt4xMs: number;
  /** The longest task after the first paint, as observed. */
  longestMs: number;
}

const SLOWDOWN = 4;
const BLOCKING_MS = 50;

/** The renderer's main thread: of the threads named CrRendererMain, the one that ran the most tasks. */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name === 'RunTask' && mains.has(key)) tasks.set(key, (tasks.get(key) ?? 0) + 1);
  }
  const busiest = [...tasks].sort((a, b) => b[1] - a[1])[0];
  if (!busiest) throw new Error('the trace has no renderer main thread');
  const [pid, tid] = busiest[0].split(':').map(Number);
  return { pid: pid!, tid: tid! };
}

export function longTaskFigures(events: TraceEvent[]): LongTaskFigures {
  const { pid, tid } = mainThread(events);
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid);
  const last = (name: string) => onMain.filter((e) => e.name === name).at(-1);
  const fcp = last('firstContentfulPaint');
  if (!fcp) throw new Error('the page never painted (no firstContentfulPaint in the trace)');
  const lcp = last('largestContentfulPaint::Candidate');
  // The navigation's start; without its event, the first task of the thread.
  const start = last('navigationStart')?.ts ?? Math.min(...onMain.map((e) => e.ts));
  const after = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts >= fcp.ts).map((e) => (e.dur ?? 0) / 1000);
  const long = after.filter((ms) => ms * SLOWDOWN > BLOCKING_MS);
  return {
    fcpMs: (fcp.ts - start) / 1000,
    lcpMs: lcp ? (lcp.ts - start) / 1000 : Number.NaN,
    longTasks: long.length,
    tbtAt4xMs: long.reduce((sum, ms) => sum + ms * SLOWDOWN - BLOCKING_MS, 0),
    longestMs: Math.max(0, ...after),
  };
}

/**
 * Start-up in pieces (issue 25): a phone's main thread must be free to paint and to answer a tap between
 * the pieces of work that follow the first paint, so no single task runs past 50 ms.
 */

interface Scheduler {
  yield?: () => Promise<void>;
}

/**
 * Lets the browser paint and handle input before the caller continues. `scheduler.yield` (Chromium) resumes
 * ahead of other queued tasks; elsewhere a new task after those already queued.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `work` once the browser is idle (or after `timeoutMs` at the latest); Safari has no
 * requestIdleCallback, so there it waits a short while instead. Returns a function that cancels it.
 */
export function whenIdle(work: () => void, timeoutMs = 3000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => work(), { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, 200);
  return () => clearTimeout(timer);
}

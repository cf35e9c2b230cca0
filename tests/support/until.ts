/** Waits for work done in the background (a job) to show: polls `read` until it answers something. */
export async function until<T>(read: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for background work');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

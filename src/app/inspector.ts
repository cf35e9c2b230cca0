/**
 * The Stately inspector, in development only: `?inspect` in the URL or VITE_INSPECT=true. The import is
 * dynamic and behind `import.meta.env.DEV`, so production builds contain none of it (a test checks).
 */
import type { InspectionEvent } from 'xstate';

const TOKEN_KEYS = /token/i;

/** Replaces every value whose key mentions a token, at any depth, so no credential reaches the inspector. */
export function redactTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactTokens);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, TOKEN_KEYS.test(key) ? '[redacted]' : redactTokens(inner)]),
    );
  }
  return value;
}

function inspectorWanted(): boolean {
  return new URLSearchParams(window.location.search).has('inspect') || import.meta.env.VITE_INSPECT === 'true';
}

export async function startInspector(): Promise<((event: InspectionEvent) => void) | undefined> {
  // The condition must guard the import itself for the bundler to drop the inspector from production.
  if (import.meta.env.DEV && inspectorWanted()) {
    const { createBrowserInspector } = await import('@statelyai/inspect');
    const inspector = createBrowserInspector({
      sanitizeContext: (context) => redactTokens(context) as typeof context,
      sanitizeEvent: (event) => redactTokens(event) as typeof event,
    });
    return inspector.inspect as (event: InspectionEvent) => void;
  }
  return undefined;
}

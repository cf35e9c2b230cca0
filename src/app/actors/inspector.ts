/**
 * The Stately inspector, in development only: `?inspect` in the URL or VITE_INSPECT=true. The import is
 * dynamic and behind `import.meta.env.DEV`, so production builds contain none of it (a test checks).
 * It opens https://stately.ai/inspect in a pop-up window, so it needs a connection and allowed pop-ups;
 * offline, docs/flows/ has every machine's chart. A blocked pop-up is said on the page, not swallowed.
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
      window: windowReportingBlockedPopup(),
      sanitizeContext: (context) => redactTokens(context) as typeof context,
      sanitizeEvent: (event) => redactTokens(event) as typeof event,
    });
    const observer = inspector.inspect as { next: (event: InspectionEvent) => void };
    return onlyStartedActors((event) => observer.next(event));
  }
  return undefined;
}

export const POPUP_BLOCKED_TEXT =
  'The Stately inspector could not open: this browser blocked its pop-up. Allow pop-ups for this site and reload. ' +
  '(The inspector runs on stately.ai and needs a connection; offline, see docs/flows/.)';

/** The page's window, except that a `window.open` the browser refuses puts a notice on the page. */
function windowReportingBlockedPopup(): Window {
  const open: Window['open'] = (...args) => {
    const opened = window.open(...args);
    if (!opened) reportBlockedPopup(document);
    return opened;
  };
  return new Proxy(window, {
    get: (target, key) => {
      if (key === 'open') return open;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A fixed notice at the bottom of the page (plain DOM: the inspector starts before React renders). */
function reportBlockedPopup(page: Document): void {
  const notice = page.createElement('div');
  notice.setAttribute('role', 'alert');
  notice.textContent = POPUP_BLOCKED_TEXT;
  notice.style.cssText =
    'position:fixed;left:16px;right:16px;bottom:16px;z-index:1000;padding:12px 16px;border-radius:8px;' +
    'background:#1f1f1f;color:#fff;font:14px/1.4 system-ui,sans-serif';
  page.body.append(notice);
}

/**
 * Holds back an actor's creation until it starts. Under StrictMode React calls a state initialiser twice
 * (useAppActor's, which creates the actor) and throws one actor away unstarted; the inspector then listed
 * every screen's actor twice. An actor that never starts never reaches the inspector.
 */
export function onlyStartedActors(inspect: (event: InspectionEvent) => void): (event: InspectionEvent) => void {
  const created = new Map<string, InspectionEvent>();
  return (event) => {
    const id = event.actorRef.sessionId;
    if (event.type === '@xstate.actor') {
      created.set(id, event);
      return;
    }
    const creation = created.get(id);
    if (creation) {
      created.delete(id);
      inspect(creation);
    }
    inspect(event);
  };
}

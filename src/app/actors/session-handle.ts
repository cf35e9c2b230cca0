/**
 * The session as every page reads it, without XState on the first load (issue 12: the home page's
 * JavaScript before it is interactive is at most 110 KB gzip). The session actor, with the machine,
 * XState and its browser services, loads once the page is interactive (src/main.tsx), or at once where a
 * page depends on the session (a route guard asks for it). Until then the session reads as the machine's
 * initial state, "loading" with nobody signed in, which is all a prerendered page shows of it (the
 * header's placeholder); events sent meanwhile are delivered, in order, when the actor starts.
 */
import { EMPTY_SESSION_CONTEXT, STARTING_SESSION_TAGS, type SessionContext, type SessionTag } from '../../../machines/session-context';
import type { SessionEvent } from '../../../machines/session';
import type { SessionActor } from '../flows/session-runtime';

/** What a screen reads of the session: the actor's snapshot, or the starting view before it runs. */
export interface SessionView {
  context: SessionContext;
  hasTag(tag: SessionTag): boolean;
}

export interface SessionHandle {
  /** The session now (a stable object between changes, as `useSyncExternalStore` needs). */
  getSnapshot(): SessionView;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  send(event: SessionEvent): void;
  /** The signed-in session's token for an API call, or null (signed out, or the session not loaded yet). */
  sessionToken(): string | null;
  /** The running session actor: loads its code and starts it on first call (retrying a failed download). */
  load(): Promise<SessionActor>;
  /** The session once it is known (no longer `loading`); starts loading it if nobody has. */
  settled(): Promise<SessionView>;
  /**
   * No session is stored in this browser: until something needs the actor (an event, a guard), read as the
   * machine reads once it has found none (signed out, nothing loading), without loading its code (issue 45
   * item 9: a first-time visitor's home page loads no session code). Ignored once the actor loads.
   */
  readAsSignedOut(): void;
}

/** The session before its actor runs: what the prerendered pages were rendered with. */
export const STARTING_SESSION_VIEW: SessionView = {
  context: EMPTY_SESSION_CONTEXT,
  hasTag: (tag) => STARTING_SESSION_TAGS.includes(tag),
};

/** The session with none stored: what the machine reads as in `signedOut` after start-up, without its code. */
export const SIGNED_OUT_SESSION_VIEW: SessionView = {
  context: EMPTY_SESSION_CONTEXT,
  hasTag: () => false,
};

const LOAD_RETRY_MS = 3000;

/** `startActor` loads the session's code and returns its actor, started. It is called at most once. */
export function createSessionHandle(startActor: () => Promise<SessionActor>): SessionHandle {
  let actor: SessionActor | null = null;
  let loading: Promise<SessionActor> | null = null;
  let noneStored = false;
  const pending: SessionEvent[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());

  /**
   * A download that fails (a flaky network) is tried again a moment later, for as long as it takes: the
   * header's placeholder and the pages that wait for the session stay until it has loaded.
   */
  async function startWithRetries(): Promise<SessionActor> {
    for (;;) {
      try {
        return adopt(await startActor());
      } catch (error) {
        console.warn('The session could not be loaded; trying again.', error);
        await new Promise((resolve) => setTimeout(resolve, LOAD_RETRY_MS));
      }
    }
  }

  function adopt(started: SessionActor): SessionActor {
    actor = started;
    started.subscribe(notify);
    for (const event of pending.splice(0)) started.send(event);
    notify();
    return started;
  }

  const handle: SessionHandle = {
    getSnapshot: () => actor?.getSnapshot() ?? (noneStored && !loading ? SIGNED_OUT_SESSION_VIEW : STARTING_SESSION_VIEW),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send(event) {
      if (actor) actor.send(event);
      else {
        pending.push(event);
        // Read as signed out with nothing loading: an event (another tab signed in) needs the actor now.
        if (noneStored) void handle.load();
      }
    },
    sessionToken: () => handle.getSnapshot().context.sessionToken,
    load() {
      if (!loading) {
        loading = startWithRetries();
        // From the signed-out reading back to the machine's own, which starts loading.
        if (noneStored) notify();
      }
      return loading;
    },
    readAsSignedOut() {
      if (actor || loading || noneStored) return;
      noneStored = true;
      notify();
    },
    async settled() {
      await handle.load();
      return new Promise((resolve) => {
        const check = () => {
          const view = handle.getSnapshot();
          if (view.hasTag('loading')) return;
          unsubscribe();
          resolve(view);
        };
        const unsubscribe = handle.subscribe(check);
        check();
      });
    },
  };
  return handle;
}

import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Subscription } from '../../contract/api';
import type { SessionTag } from '../../machines/session-context';
import type { SessionUser } from '../../machines/types';
import { useAppActors } from './app-context';
import { needsSupport } from '../../machines/sign-in-errors';
import { STARTING_SESSION_VIEW, type SessionView } from './session-handle';
import type { SignInActor } from './sign-in-services';

/**
 * One value read from the session; the component re-renders only when it changes. `select` must return a
 * primitive or an object the session keeps (e.g. `context.user`), not a new one. While hydrating, React
 * reads the starting view, which is what the page was prerendered with.
 */
export function useSessionView<T>(select: (view: SessionView) => T): T {
  const { session } = useAppActors();
  return useSyncExternalStore(
    session.subscribe,
    () => select(session.getSnapshot()),
    () => select(STARTING_SESSION_VIEW),
  );
}

/** Narrow reads of the session: re-render only when these values change. */
export function useSessionUser(): SessionUser | null {
  return useSessionView((state) => state.context.user);
}

export function useSubscription(): Subscription | null {
  return useSessionView((state) => state.context.subscription);
}

export function useSessionTag(tag: SessionTag): boolean {
  return useSessionView((state) => state.hasTag(tag));
}

/**
 * Sign-in buttons: `start(provider)` sends the click to the sign-in machine; `busy` is its `signingIn`
 * tag, read once the (lazily created) actor exists. The sign-in code and Firebase load when the buttons
 * render (once the browser is idle) or, sooner, on `prepare` (hover, focus): a popup opened after the
 * click waited for them would be blocked (issue 12).
 */
export function useSignIn() {
  const actors = useAppActors();
  const [actor, setActor] = useState<SignInActor | null>(null);
  const [busy, setBusy] = useState(false);
  const [openingApp, setOpeningApp] = useState(false);
  const [supportMessage, setSupportMessage] = useState<string | null>(null);

  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(actors.prepareSignIn, 200);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(actors.prepareSignIn, { timeout: 2000 });
    return () => cancelIdleCallback(idle);
  }, [actors]);

  useEffect(() => {
    if (!actor) return;
    const update = () => {
      const snapshot = actor.getSnapshot();
      setBusy(snapshot.hasTag('signingIn'));
      // Signed in; the deep-link decision is opening the desktop app (it lingers there only then).
      setOpeningApp(snapshot.matches({ attempt: 'decidingDestination' }));
      const error = snapshot.context.lastError;
      setSupportMessage(error && needsSupport(error.code) ? error.message : null);
    };
    update();
    const subscription = actor.subscribe(update);
    return () => subscription.unsubscribe();
  }, [actor]);

  return {
    busy,
    /** Signed in, and the desktop app's link is being opened (issue 22 item 2): say so. */
    openingApp,
    /** A sign-in error trying again cannot fix (catalogue "no retry"): its message; the buttons are disabled. */
    supportMessage,
    prepare: actors.prepareSignIn,
    start: (provider: 'google' | 'apple') => {
      actors.signInWith(provider);
      void actors.getSignIn().then(setActor);
    },
  };
}

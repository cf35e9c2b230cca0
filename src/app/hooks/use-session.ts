import { useSyncExternalStore } from 'react';
import type { Subscription } from '../../../contract/api';
import type { SessionTag } from '../../../machines/session-context';
import type { SessionUser } from '../../../machines/types';
import { useAppActors } from '../actors/app-context';
import { STARTING_SESSION_VIEW, type SessionView } from '../actors/session-handle';

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

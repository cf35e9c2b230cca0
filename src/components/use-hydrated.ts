import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while React hydrates a prerendered page (and on the server), true afterwards. What depends on the
 * session renders its prerendered form until then, so the first render in the browser matches the HTML
 * the build wrote (no hydration mismatch), whatever the session machine has reached by then.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { Subscription } from '../../contract/api';
import type { SessionUser } from '../../machines/types';
import { useAppActors } from './app-context';
import { needsSupport } from '../../machines/sign-in-errors';
import type { SignInActor } from './sign-in-services';

/** Narrow reads of the session actor: re-render only when these values change. */
export function useSessionUser(): SessionUser | null {
  return useSelector(useAppActors().session, (state) => state.context.user);
}

export function useSubscription(): Subscription | null {
  return useSelector(useAppActors().session, (state) => state.context.subscription);
}

export function useSessionTag(tag: 'loading' | 'refreshing' | 'signingOut'): boolean {
  return useSelector(useAppActors().session, (state) => state.hasTag(tag));
}

/**
 * Sign-in buttons: `start(provider)` sends the click to the sign-in machine; `busy` is its `signingIn`
 * tag, read once the (lazily created) actor exists.
 */
export function useSignIn() {
  const actors = useAppActors();
  const [actor, setActor] = useState<SignInActor | null>(null);
  const [busy, setBusy] = useState(false);
  const [supportMessage, setSupportMessage] = useState<string | null>(null);

  useEffect(() => {
    if (!actor) return;
    const update = () => {
      const snapshot = actor.getSnapshot();
      setBusy(snapshot.hasTag('signingIn'));
      const error = snapshot.context.lastError;
      setSupportMessage(error && needsSupport(error.code) ? error.message : null);
    };
    update();
    const subscription = actor.subscribe(update);
    return () => subscription.unsubscribe();
  }, [actor]);

  return {
    busy,
    /** A sign-in error trying again cannot fix (catalogue "no retry"): its message; the buttons are disabled. */
    supportMessage,
    start: (provider: 'google' | 'apple') => {
      actors.signInWith(provider);
      void actors.getSignIn().then(setActor);
    },
  };
}

import { useEffect, useState } from 'react';
import { needsSupport, RECENTLY_DELETED_TITLE } from '../../../machines/sign-in-errors';
import { useAppActors } from '../actors/app-context';
import { whenIdle } from '../boot/main-thread';
import { connectionSavesData } from '../boot/connection';
import type { SignInActor } from '../flows/sign-in-services';

/**
 * Sign-in buttons: `start(provider)` sends the click to the sign-in machine; `busy` is its `signingIn`
 * tag, read once the (lazily created) actor exists. Kept out of use-session.ts so that the sign-in error
 * catalogue stays off the first load of the pages without sign-in buttons.
 *
 * The sign-in code and Firebase load once the buttons have rendered and the browser is idle (or sooner on
 * `prepare`: hover, focus), so they are ready before the first tap: a popup opened after the click waited
 * for them would be blocked (issue 12), and a tap has no hover before it (issue 34).
 */
export function useSignIn() {
  const actors = useAppActors();
  const [actor, setActor] = useState<SignInActor | null>(null);
  const [busy, setBusy] = useState(false);
  const [openingApp, setOpeningApp] = useState(false);
  const [supportMessage, setSupportMessage] = useState<string | null>(null);
  const [recentlyDeleted, setRecentlyDeleted] = useState<string | null>(null);

  // On Save-Data or 2G nothing is fetched ahead (issue 45 item 9): hover, focus or the tap loads it (a popup
  // opened after the download falls back to the redirect sign-in, spec §4).
  useEffect(() => (connectionSavesData() ? undefined : whenIdle(actors.prepareSignIn, 2000)), [actors]);

  useEffect(() => {
    if (!actor) return;
    const update = () => {
      const snapshot = actor.getSnapshot();
      setBusy(snapshot.hasTag('signingIn'));
      // Signed in; the deep-link decision is opening the desktop app (it lingers there only then).
      setOpeningApp(snapshot.matches({ attempt: 'decidingDestination' }));
      const error = snapshot.context.lastError;
      setSupportMessage(error && needsSupport(error.code) ? error.message : null);
      setRecentlyDeleted(error?.title === RECENTLY_DELETED_TITLE ? error.message : null);
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
    /** A sign-in refused within the deletion cool-down: its message, kept in the card after the toast (issue 45, T17). */
    recentlyDeleted,
    prepare: actors.prepareSignIn,
    start: (provider: 'google' | 'apple') => {
      actors.signInWith(provider);
      void actors.getSignIn().then(setActor);
    },
  };
}

import { useEffect, useRef, useState } from 'react';
import type { AppLinkPhase } from '../../components/app-link-status';
import type { AppLinkActor } from '../flows/app-link-runtime';
import { useAppActors } from '../actors/app-context';

/**
 * The app-link machine for one button (issue 22 item 2): `open` makes and opens the link (rejecting when it
 * could not); the page tells the machine when the browser hides it (the app took over). The machine and
 * XState load on first use (src/app/flows/app-link-runtime.ts), not with the page (issue 25); until then the
 * phase is idle, which is the machine's initial state.
 */
export function useAppLink(open: () => Promise<void>): { phase: AppLinkPhase; open: () => void; notOpened: () => void } {
  const actors = useAppActors();
  const [phase, setPhase] = useState<AppLinkPhase>('idle');
  // `open` may be a new closure each render: the actor, made once, calls the latest.
  const latestOpen = useRef(open);
  useEffect(() => {
    latestOpen.current = open;
  });
  const actor = useRef<Promise<AppLinkActor> | null>(null);
  const loaded = useRef<AppLinkActor | null>(null);
  const unmounted = useRef(false);

  const started = () =>
    (actor.current ??= import('../flows/app-link-runtime').then(({ startAppLink }) => {
      const running = startAppLink({ open: () => latestOpen.current(), onPhase: setPhase, system: actors.system });
      if (unmounted.current) running.stop();
      loaded.current = running;
      return running;
    }));

  useEffect(() => {
    unmounted.current = false;
    // Only a started actor can be waiting for the app to take over.
    const hidden = () => loaded.current?.send({ type: 'page.hidden' });
    const onVisibilityChange = () => document.visibilityState === 'hidden' && hidden();
    document.addEventListener('visibilitychange', onVisibilityChange);
    window.addEventListener('blur', hidden);
    return () => {
      document.removeEventListener('visibilitychange', onVisibilityChange);
      window.removeEventListener('blur', hidden);
      unmounted.current = true;
      loaded.current?.stop();
      loaded.current = null;
      actor.current = null;
    };
  }, []);

  return {
    phase,
    open: () => void started().then((running) => running.send({ type: 'appLink.open' })),
    /** The link was opened before this page (a desktop sign-in) and the page is still in front. */
    notOpened: () => void started().then((running) => running.send({ type: 'appLink.notOpened' })),
  };
}

import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { appLinkMachine } from '../../machines/app-link';
import type { AppLinkPhase } from '../components/app-link-status';
import { useAppActors } from './app-context';

/**
 * The app-link machine for one button (issue 22 item 2): `open` makes and opens the link (rejecting when it
 * could not); the page tells the machine when the browser hides it (the app took over).
 */
export function useAppLink(open: () => Promise<void>): { phase: AppLinkPhase; open: () => void; notOpened: () => void } {
  const actors = useAppActors();
  // `open` may be a new closure each render: the machine, made once, calls the latest.
  const latestOpen = useRef(open);
  useEffect(() => {
    latestOpen.current = open;
  });
  const machine = useMemo(() => appLinkMachine.provide({ actors: { openAppLink: fromPromise(() => latestOpen.current()) } }), []);
  const [state, send] = useMachine(machine, { inspect: actors.inspect });
  useEffect(() => {
    const onVisibilityChange = () => document.visibilityState === 'hidden' && send({ type: 'page.hidden' });
    const onBlur = () => send({ type: 'page.hidden' });
    document.addEventListener('visibilitychange', onVisibilityChange);
    window.addEventListener('blur', onBlur);
    return () => {
      document.removeEventListener('visibilitychange', onVisibilityChange);
      window.removeEventListener('blur', onBlur);
    };
  }, [send]);
  const phase: AppLinkPhase = state.hasTag('opening') ? 'opening' : state.hasTag('notOpened') ? 'notOpened' : 'idle';
  return {
    phase,
    open: () => send({ type: 'appLink.open' }),
    /** The link was opened before this page (a desktop sign-in) and the page is still in front. */
    notOpened: () => send({ type: 'appLink.notOpened' }),
  };
}

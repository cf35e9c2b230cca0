/**
 * The app-link machine as a running actor, loaded on the first click of an app-link button (or the first
 * notice that a link opened elsewhere), so that XState stays off the first load of /success and /cancel
 * (issue 25). src/app/hooks/use-app-link.ts holds the page's side.
 */
import { fromPromise } from 'xstate';
import { appLinkMachine } from '../../../machines/app-link';
import type { AppLinkPhase } from '../../components/app-link-status';
import type { AppSystem } from '../actors/app-system';
import { createAppChild, startAppChild, stopAppChild } from '../actors/app-system';

export interface AppLinkActor {
  send: (event: { type: 'appLink.open' } | { type: 'appLink.notOpened' } | { type: 'page.hidden' }) => void;
  stop: () => void;
}

export function startAppLink({
  open,
  onPhase,
  system,
}: {
  open: () => Promise<void>;
  onPhase: (phase: AppLinkPhase) => void;
  system: AppSystem;
}): AppLinkActor {
  const machine = appLinkMachine.provide({ actors: { openAppLink: fromPromise(() => open()) } });
  // A child of the app's root, named for the inspector (src/app/actors/app-system.ts).
  const actor = createAppChild(system, machine, { id: 'appLink' });
  actor.subscribe((state) => onPhase(state.hasTag('opening') ? 'opening' : state.hasTag('notOpened') ? 'notOpened' : 'idle'));
  startAppChild(system, actor);
  return { send: (event) => actor.send(event), stop: () => stopAppChild(system, actor) };
}

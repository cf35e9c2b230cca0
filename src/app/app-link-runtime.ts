/**
 * The app-link machine as a running actor, loaded on the first click of an app-link button (or the first
 * notice that a link opened elsewhere), so that XState stays off the first load of /success and /cancel
 * (issue 25). src/app/use-app-link.ts holds the page's side.
 */
import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import { appLinkMachine } from '../../machines/app-link';
import type { AppLinkPhase } from '../components/app-link-status';

export interface AppLinkActor {
  send: (event: { type: 'appLink.open' } | { type: 'appLink.notOpened' } | { type: 'page.hidden' }) => void;
  stop: () => void;
}

export function startAppLink({
  open,
  onPhase,
  inspect,
}: {
  open: () => Promise<void>;
  onPhase: (phase: AppLinkPhase) => void;
  inspect: ((event: InspectionEvent) => void) | undefined;
}): AppLinkActor {
  const machine = appLinkMachine.provide({ actors: { openAppLink: fromPromise(() => open()) } });
  const actor = createActor(machine, inspect ? { inspect } : {});
  actor.subscribe((state) => onPhase(state.hasTag('opening') ? 'opening' : state.hasTag('notOpened') ? 'notOpened' : 'idle'));
  actor.start();
  return { send: (event) => actor.send(event), stop: () => actor.stop() };
}

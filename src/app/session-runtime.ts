/**
 * The session actor with its browser services: the machine, XState and the services, loaded after the
 * first load (src/app/session-handle.ts decides when) and started at once.
 */
import { createActor, type InspectionEvent } from 'xstate';
import { sessionMachine } from '../../machines/session';
import type { NavigateParams } from '../../machines/types';
import { sessionActions, sessionActors } from './session-services';

export type SessionActor = ReturnType<typeof startSessionActor>;

export interface SessionRuntimeOptions {
  navigate: (params: NavigateParams) => void;
  inspect?: (event: InspectionEvent) => void;
}

export function startSessionActor({ navigate, inspect }: SessionRuntimeOptions) {
  const redirectToSignIn = () => {
    const { pathname, search } = window.location;
    navigate(pathname === '/signin' ? { to: '/signin' } : { to: '/signin', redirect: `${pathname}${search}` });
  };
  return createActor(sessionMachine.provide({ actors: sessionActors, actions: { ...sessionActions, redirectToSignIn } }), {
    systemId: 'session',
    input: {},
    inspect,
  }).start();
}

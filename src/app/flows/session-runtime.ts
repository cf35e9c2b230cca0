/**
 * The session actor with its browser services: the machine, XState and the services, loaded after the
 * first load (src/app/actors/session-handle.ts decides when) and started at once.
 */
import { sessionMachine } from '../../../machines/session';
import type { NavigateParams } from '../../../machines/types';
import type { AppSystem } from '../actors/app-system';
import { createAppChild, startAppChild } from '../actors/app-system';
import { sessionActions, sessionActors } from './session-services';

export type SessionActor = ReturnType<typeof startSessionActor>;

export interface SessionRuntimeOptions {
  navigate: (params: NavigateParams) => void;
  system: AppSystem;
}

export function startSessionActor({ navigate, system }: SessionRuntimeOptions) {
  const redirectToSignIn = () => {
    const { pathname, search } = window.location;
    navigate(pathname === '/signin' ? { to: '/signin' } : { to: '/signin', redirect: `${pathname}${search}` });
  };
  const machine = sessionMachine.provide({ actors: sessionActors, actions: { ...sessionActions, redirectToSignIn } });
  return startAppChild(system, createAppChild(system, machine, { id: 'session', systemId: 'session', input: {} }));
}

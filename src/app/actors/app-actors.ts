/**
 * The composition root of the SPA's flows: the app-lifetime actors, created once outside React
 * (StrictMode mounts components twice), with the browser implementations of their named actors and
 * actions. The session is a handle whose actor (with XState) loads after the first load
 * (session-handle.ts); the sign-in actor is created on demand, since its code pulls in Firebase.
 */
import type { InspectionEvent } from 'xstate';
import type { NavigateParams } from '../../../machines/types';
import { onProviderAuthState } from '../../services/auth-state';
import { STORAGE_KEYS, storage } from '../../services/storage';
import { createSessionHandle, type SessionHandle } from './session-handle';
import { yieldToMain } from '../boot/main-thread';
import type { AppSystem } from './app-system';
import type { SignInActor } from '../flows/sign-in-services';

export interface AppActorsOptions {
  navigate: (params: NavigateParams) => void;
  inspect?: (event: InspectionEvent) => void;
}

export function createAppActors({ navigate, inspect }: AppActorsOptions) {
  const system: AppSystem = { inspect };
  // The session's code in two tasks (issue 32 item 4). A dynamic import evaluates a module and everything it
  // needs that has not run yet in one uninterrupted task, so the API client (zod and the contract's schemas,
  // the largest part to evaluate) is imported first and the main thread yielded; the runtime with XState and
  // the machine then finds it done. Only local modules are split so: a dynamic import of a library by name
  // keeps every export of it (no tree-shaking; measured in docs/performance.md). The warm-up names what it takes:
  // knip reads a bare `import()` as a use of every export of the module, and would then miss a dead one.
  const session: SessionHandle = createSessionHandle(async () => {
    const { api: _warmedUp } = await import('../../services/api-client');
    await yieldToMain();
    const { startSessionActor } = await import('../flows/session-runtime');
    return startSessionActor({ navigate, system });
  });
  let signIn: Promise<SignInActor> | null = null;
  let signInActor: SignInActor | null = null;

  /** The sign-in actor, created (and its code loaded) on first need. */
  function getSignIn(): Promise<SignInActor> {
    signIn ??= import('../flows/sign-in-services').then(({ createSignInActor }) => {
      signInActor = createSignInActor({
        navigate,
        system,
        // The session machine stores the token: it must run, even where nothing on the page has needed it yet.
        handOffSession: (handedOff) => {
          void session.load();
          session.send({ type: 'session.signedIn', session: handedOff });
        },
        endSession: () => session.send({ type: 'session.ended' }),
      });
      return signInActor;
    });
    // A failed download (a flaky network) is tried again by the next need.
    signIn.catch(() => {
      signIn = null;
    });
    return signIn;
  }

  /** A sign-in button rendered, or the pointer or focus reached it: load the sign-in code and Firebase now. */
  function prepareSignIn() {
    void getSignIn()
      .then(() => import('../flows/sign-in-services'))
      .then((services) => services.preparePopupSignIn())
      .catch(() => undefined);
  }

  function signInWith(provider: 'google' | 'apple') {
    const { pathname, search } = window.location;
    const send = (actor: SignInActor) => actor.send({ type: 'signIn.start', provider, pathname, search });
    // Prepared: sent inside the click, so the popup opens within the gesture (issue 12).
    if (signInActor) send(signInActor);
    else void getSignIn().then(send);
  }

  // Firebase Auth, once loaded in this page, reports every auth state change (spec §4 "Session restore").
  const stopAuthState = onProviderAuthState((signedIn) =>
    session.send({ type: 'auth.changed', signedIn, storedSessionToken: storage.getSessionToken() }),
  );

  // Back online: a session waiting to be checked is checked now, not at the end of its back-off.
  const onOnline = () => session.send({ type: 'connection.online' });
  window.addEventListener('online', onOnline);

  // Another tab signed out (it removed the shared session token): end this tab's session too.
  // Another tab signed in (it stored a token): restore that session here. These hold where Firebase is not loaded.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.sessionToken && event.newValue === null) session.send({ type: 'session.ended' });
    if (event.key === STORAGE_KEYS.sessionToken && event.newValue) {
      session.send({ type: 'auth.changed', signedIn: true, storedSessionToken: event.newValue });
    }
    if (event.key === null) session.send({ type: 'session.ended' }); // localStorage.clear() elsewhere
  };
  window.addEventListener('storage', onStorage);

  /**
   * Removes the listeners above, so the actors hear nothing more from the page. The page never calls it (its
   * actors live as long as it does); a test composing the app more than once does, so that an actor it has
   * stopped is not sent the next test's events.
   */
  function detachFromPage() {
    stopAuthState();
    window.removeEventListener('online', onOnline);
    window.removeEventListener('storage', onStorage);
  }

  // A redirect sign-in brought the browser back: consume its result now (spec §4 step 3), with the session
  // actor running to take the session it hands over (it otherwise loads at idle, issue 25).
  if (storage.isRedirectPending()) {
    void session.load();
    void getSignIn();
  }

  /** Every screen's actor is a named child in the same system (src/app/actors/app-system.ts). */
  return { session, getSignIn, prepareSignIn, signInWith, system, detachFromPage };
}

export type AppActors = ReturnType<typeof createAppActors>;

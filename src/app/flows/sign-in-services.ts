/**
 * The sign-in machine composed with its browser implementations. Loaded on demand (a sign-in button
 * rendered, at idle, or hovered or focused; or a page load with a redirect sign-in pending), so Firebase
 * and the sign-in code stay off the first load of every public page yet are ready before the click.
 */
import { fromPromise } from 'xstate';
import { deepLinkMachine } from '../../../machines/deep-link';
import { signInMachine, type RedirectCheckOutput } from '../../../machines/sign-in';
import type { ExchangeRequest, NavigateParams, Provider, ProviderCredential, Session } from '../../../machines/types';
import { api } from '../../services/api-client';
import { openDesktopApp } from '../../services/desktop-link';
import { isDesktop } from '../../services/device';
import * as firebase from '../../services/firebase-auth';
import { storage } from '../../services/storage';
import { showToast, type ToastParams } from '../../services/toasts';
import type { AppSystem } from '../actors/app-system';
import { createAppChild, startAppChild } from '../actors/app-system';
import { getClientConfig, signOutProvider, toSessionUser } from './session-services';

export interface SignInDependencies {
  navigate: (params: NavigateParams) => void;
  handOffSession: (session: Session) => void;
  /** The session ended here (recently-deleted account): tell the session machine. */
  endSession: () => void;
  system: AppSystem;
}

async function exchange(request: ExchangeRequest): Promise<Session> {
  const answer =
    request.provider === 'google'
      ? await api.googleSignIn({ idToken: request.idToken })
      : await api.appleSignIn({
          identityToken: request.identityToken,
          userIdentifier: request.userIdentifier,
          email: request.email,
          fullName: request.fullName,
        });
  return { sessionToken: answer.sessionToken, subscription: answer.subscription, user: toSessionUser(answer.user) };
}

/**
 * Spec §4 step 3. Firebase is consulted only when a redirect sign-in is pending: without one there is no
 * redirect result to consume, and a provider user without an API session cannot arise from this app.
 */
async function consumeRedirectResult(): Promise<RedirectCheckOutput> {
  const hasStoredSession = storage.getSessionToken() !== null;
  if (!storage.isRedirectPending()) return { credential: null, providerSignedIn: false, hasStoredSession };
  const config = getClientConfig();
  const credential = await firebase.getRedirectResult(config);
  const current = credential ?? (await firebase.currentUserCredential(config));
  return { credential, providerSignedIn: current !== null, hasStoredSession };
}

/** Ahead of a click on a sign-in button: Firebase loaded and its popup ready (src/services/firebase-auth.ts). */
export function preparePopupSignIn(): Promise<void> {
  return firebase.preparePopupSignIn(getClientConfig());
}

/** The sign-in actor, started: a child of the app's root (src/app/actors/app-system.ts). */
export function createSignInActor(deps: SignInDependencies) {
  const machine = signInMachine.provide({
    actors: {
      consumeRedirectResult: fromPromise<RedirectCheckOutput>(() => consumeRedirectResult()),
      getIdToken: fromPromise<ProviderCredential>(async () => {
        const credential = await firebase.currentUserCredential(getClientConfig());
        if (!credential) throw new Error('No access token received. Please try again.');
        return credential;
      }),
      signInWithPopup: fromPromise<ProviderCredential, { provider: Provider }>(({ input }) =>
        firebase.signInWithPopup(getClientConfig(), input.provider),
      ),
      startRedirect: fromPromise<void, { provider: Provider }>(({ input }) =>
        firebase.signInWithRedirect(getClientConfig(), input.provider),
      ),
      exchangeToken: fromPromise<Session, { request: ExchangeRequest }>(({ input }) => exchange(input.request)),
      signOutProvider: fromPromise<void>(() => signOutProvider()),
      deepLink: deepLinkMachine.provide({
        actors: {
          openDesktopApp: fromPromise<void, { sessionToken: string }>(async ({ input }) => {
            await openDesktopApp(input.sessionToken);
            // The page moves to /account after the deep-link fallback: there it says if the app did not open.
            storage.markAppLinkAfterSignIn(Date.now());
          }),
        },
        actions: { navigate: (_, params: NavigateParams) => deps.navigate(params) },
      }),
    },
    actions: {
      storeRedirectPending: () => storage.markRedirectPending(Date.now()),
      clearRedirectPending: () => storage.clearRedirectPending(),
      handOffSession: (_, params: { session: Session }) => deps.handOffSession(params.session),
      endSession: () => deps.endSession(),
      showToast: (_, params: ToastParams) => void showToast(params),
      alert: (_, params: { message: string }) => window.alert(params.message),
      navigate: (_, params: NavigateParams) => deps.navigate(params),
    },
  });
  const actor = createAppChild(deps.system, machine, {
    id: 'signIn',
    systemId: 'signIn',
    input: { isDesktop: isDesktop(), location: { pathname: window.location.pathname, search: window.location.search } },
  });
  return startAppChild(deps.system, actor);
}

export type SignInActor = ReturnType<typeof createSignInActor>;

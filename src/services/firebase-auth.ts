/**
 * Firebase Auth, loaded only when it is needed: a sign-in, a pending redirect, an ID token, or a provider
 * sign-out (design §2, issue: keep Firebase off the public pages' first load). Every export is async and
 * imports the SDK on first use; Vite puts the SDK in its own chunks.
 *
 * `initializeAuth` is called without a popup/redirect resolver, so a page that only needs an ID token does
 * not load the popup machinery; the resolver is passed to the sign-in calls alone.
 */
import type { Auth, User, UserCredential } from 'firebase/auth';
import type { ProviderCredential, Provider } from '../../machines/types';
import { reportProviderAuthState } from './auth-state';
import type { ClientConfig } from './client-config';

let authPromise: Promise<Auth> | null = null;

export function getAuth(config: ClientConfig): Promise<Auth> {
  authPromise ??= (async () => {
    const [
      { initializeApp },
      { initializeAuth, indexedDBLocalPersistence, browserLocalPersistence, connectAuthEmulator, onAuthStateChanged },
    ] =
      await Promise.all([import('firebase/app'), import('firebase/auth')]);
    const app = initializeApp({
      apiKey: config.firebase.apiKey,
      authDomain: config.firebase.authDomain,
      projectId: config.firebase.projectId,
    });
    const auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
    if (config.firebase.emulatorUrl) connectAuthEmulator(auth, config.firebase.emulatorUrl, { disableWarnings: true });
    // From now on the session hears of sign-ins and sign-outs, in this tab or another (spec §4).
    onAuthStateChanged(auth, (user) => reportProviderAuthState(user !== null));
    return auth;
  })();
  authPromise.catch(() => {
    authPromise = null;
  });
  return authPromise;
}

async function providerFor(provider: Provider) {
  const { GoogleAuthProvider, OAuthProvider } = await import('firebase/auth');
  if (provider === 'google') {
    const google = new GoogleAuthProvider();
    google.addScope('email');
    google.addScope('profile');
    google.setCustomParameters({ prompt: 'select_account' });
    return google;
  }
  const apple = new OAuthProvider('apple.com');
  apple.addScope('email');
  apple.addScope('name');
  return apple;
}

function providerOf(user: User): Provider {
  return user.providerData.some((entry) => entry.providerId === 'apple.com') ? 'apple' : 'google';
}

async function toCredential(user: User, provider: Provider): Promise<ProviderCredential> {
  const idToken = await user.getIdToken().catch(() => null);
  return {
    provider,
    idToken,
    accountUid: user.uid,
    providerUid: user.providerData[0]?.uid ?? null,
    email: user.email,
    displayName: user.displayName,
  };
}

export async function signInWithPopup(config: ClientConfig, provider: Provider): Promise<ProviderCredential> {
  const [auth, firebaseAuth, authProvider] = await Promise.all([getAuth(config), import('firebase/auth'), providerFor(provider)]);
  const result: UserCredential = await firebaseAuth.signInWithPopup(auth, authProvider, firebaseAuth.browserPopupRedirectResolver);
  return toCredential(result.user, provider);
}

export async function signInWithRedirect(config: ClientConfig, provider: Provider): Promise<void> {
  const [auth, firebaseAuth, authProvider] = await Promise.all([getAuth(config), import('firebase/auth'), providerFor(provider)]);
  await firebaseAuth.signInWithRedirect(auth, authProvider, firebaseAuth.browserPopupRedirectResolver);
}

/** The result of a redirect sign-in that brought the browser back, or null. */
export async function getRedirectResult(config: ClientConfig): Promise<ProviderCredential | null> {
  const [auth, firebaseAuth] = await Promise.all([getAuth(config), import('firebase/auth')]);
  const result = await firebaseAuth.getRedirectResult(auth, firebaseAuth.browserPopupRedirectResolver);
  return result ? toCredential(result.user, providerOf(result.user)) : null;
}

/** The provider's already signed-in user, with a fresh ID token, or null. */
export async function currentUserCredential(config: ClientConfig): Promise<ProviderCredential | null> {
  const auth = await getAuth(config);
  await auth.authStateReady();
  return auth.currentUser ? toCredential(auth.currentUser, providerOf(auth.currentUser)) : null;
}

/** A fresh ID token of the provider's signed-in user (checkout and cancel calls carry one). */
export async function currentIdToken(config: ClientConfig): Promise<string | null> {
  const auth = await getAuth(config);
  await auth.authStateReady();
  return auth.currentUser ? auth.currentUser.getIdToken() : null;
}

export async function signOutProvider(config: ClientConfig): Promise<void> {
  const [auth, { signOut }] = await Promise.all([getAuth(config), import('firebase/auth')]);
  await signOut(auth);
}

/**
 * Firebase Auth, loaded only when it is needed: where sign-in buttons are shown (prepared at idle, on hover
 * or focus, so the popup opens inside the click), a pending redirect, an ID token, or a provider sign-out
 * (design §2: Firebase stays off the public pages' first load). Every export is async and imports the SDK
 * on first use; Vite puts the SDK in its own chunks.
 *
 * `initializeAuth` is called without a popup/redirect resolver, so a page that only needs an ID token does
 * not load the popup machinery; the resolver is passed to the sign-in calls alone.
 */
import type { Auth, PopupRedirectResolver, User, UserCredential } from 'firebase/auth';
import type { ProviderCredential, Provider } from '../../machines/types';
import { reportProviderAuthState } from './auth-state';
import type { ClientConfig } from './client-config';

let authPromise: Promise<Auth> | null = null;

function getAuth(config: ClientConfig): Promise<Auth> {
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

type FirebaseAuthModule = typeof import('firebase/auth');

async function providerFor(provider: Provider) {
  return authProviderFor(await import('firebase/auth'), provider);
}

function authProviderFor({ GoogleAuthProvider, OAuthProvider }: FirebaseAuthModule, provider: Provider) {
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

/**
 * Firebase readies its popup machinery (a hidden iframe) on the first popup sign-in and opens the popup
 * only after that: on a slow network the click's user activation has passed by then, and the browser
 * blocks the popup (issue 12). `preparePopupSignIn` does that work before the click, on the resolver
 * instance the popup sign-in then uses, so `signInWithPopup` reaches `window.open` without the network.
 */
interface PopupKit {
  auth: Auth;
  firebaseAuth: FirebaseAuthModule;
  resolver: PopupRedirectResolver;
}
interface ResolverInstance {
  _initialize?: (auth: Auth) => Promise<unknown>;
}

let shared: { resolver: PopupRedirectResolver; instance: ResolverInstance } | null = null;

/**
 * Firebase's popup/redirect resolver, one instance for every call here (popup, redirect, redirect result):
 * Firebase keeps one instance per resolver "class", made with `new` on first use, and this "class" hands
 * it ours, so it can be readied ahead. Two instances would each listen for the redirect's result.
 */
function sharedResolver(firebaseAuth: FirebaseAuthModule) {
  if (!shared) {
    const Resolver = firebaseAuth.browserPopupRedirectResolver as unknown as { new (): ResolverInstance; prototype: object };
    const instance = new Resolver();
    function PreparedResolver() {
      return instance;
    }
    PreparedResolver.prototype = Resolver.prototype;
    shared = { resolver: PreparedResolver as unknown as PopupRedirectResolver, instance };
  }
  return shared;
}

let popupKit: PopupKit | null = null;
let popupKitPromise: Promise<PopupKit> | null = null;

function loadPopupKit(config: ClientConfig): Promise<PopupKit> {
  popupKitPromise ??= (async () => {
    const [auth, firebaseAuth] = await Promise.all([getAuth(config), import('firebase/auth')]);
    const { resolver, instance } = sharedResolver(firebaseAuth);
    // The iframe; if it fails to load, the sign-in itself tries again.
    await instance._initialize?.(auth).catch(() => undefined);
    popupKit = { auth, firebaseAuth, resolver };
    return popupKit;
  })();
  popupKitPromise.catch(() => {
    popupKitPromise = null;
  });
  return popupKitPromise;
}

/** Loads Firebase Auth and readies its popup, ahead of a click on a sign-in button. */
export async function preparePopupSignIn(config: ClientConfig): Promise<void> {
  await loadPopupKit(config);
}

export async function signInWithPopup(config: ClientConfig, provider: Provider): Promise<ProviderCredential> {
  // Prepared: no await before Firebase's call, which opens the popup while the click's gesture lasts.
  const kit = popupKit ?? (await loadPopupKit(config));
  const result: UserCredential = await kit.firebaseAuth.signInWithPopup(kit.auth, authProviderFor(kit.firebaseAuth, provider), kit.resolver);
  return toCredential(result.user, provider);
}

export async function signInWithRedirect(config: ClientConfig, provider: Provider): Promise<void> {
  const [auth, firebaseAuth, authProvider] = await Promise.all([getAuth(config), import('firebase/auth'), providerFor(provider)]);
  await firebaseAuth.signInWithRedirect(auth, authProvider, sharedResolver(firebaseAuth).resolver);
}

/** The result of a redirect sign-in that brought the browser back, or null. */
export async function getRedirectResult(config: ClientConfig): Promise<ProviderCredential | null> {
  const [auth, firebaseAuth] = await Promise.all([getAuth(config), import('firebase/auth')]);
  const result = await firebaseAuth.getRedirectResult(auth, sharedResolver(firebaseAuth).resolver);
  return result ? toCredential(result.user, providerOf(result.user)) : null;
}

/** The provider's already signed-in user, with a fresh ID token, or null. */
export async function currentUserCredential(config: ClientConfig): Promise<ProviderCredential | null> {
  const auth = await getAuth(config);
  await auth.authStateReady();
  return auth.currentUser ? toCredential(auth.currentUser, providerOf(auth.currentUser)) : null;
}

/**
 * Signs the provider's current user in again (a popup), for calls that want a recent sign-in (downloading
 * your data); answers the new ID token, whose `auth_time` is now.
 */
export async function reauthenticate(config: ClientConfig): Promise<string> {
  const kit = popupKit ?? (await loadPopupKit(config));
  const user = kit.auth.currentUser;
  if (!user) throw new Error('Please sign in again.');
  const result = await kit.firebaseAuth.reauthenticateWithPopup(user, authProviderFor(kit.firebaseAuth, providerOf(user)), kit.resolver);
  return result.user.getIdToken(true);
}

/** A fresh ID token of the provider's signed-in user (checkout and cancel calls carry one). */
export async function currentIdToken(config: ClientConfig): Promise<string | null> {
  const auth = await getAuth(config);
  await auth.authStateReady();
  return auth.currentUser ? auth.currentUser.getIdToken() : null;
}

/**
 * The signed-in user's staff role, from a freshly refreshed ID token's `staff` claim (issue 30), with that
 * token; null without a user. The screens follow it; the API decides for itself from the same claim.
 */
export async function currentStaffToken(config: ClientConfig): Promise<{ idToken: string; role: unknown } | null> {
  const auth = await getAuth(config);
  await auth.authStateReady();
  if (!auth.currentUser) return null;
  const result = await auth.currentUser.getIdTokenResult(true);
  return { idToken: result.token, role: result.claims.staff ?? null };
}

export async function signOutProvider(config: ClientConfig): Promise<void> {
  const [auth, { signOut }] = await Promise.all([getAuth(config), import('firebase/auth')]);
  await signOut(auth);
}

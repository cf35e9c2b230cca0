/**
 * Firebase Auth state changes, reported to whoever listens (the session machine's `auth.changed`, spec §4
 * "Session restore"). Kept apart from firebase-auth.ts so that the app can listen from its first load
 * without loading Firebase: the subscription is made by firebase-auth.ts once Firebase Auth is loaded
 * (a sign-in, a pending redirect, an ID token, a sign-out). Where it never loads, the `storage` event
 * covers other tabs (src/app/actors/app-actors.ts).
 */
type AuthStateListener = (signedIn: boolean) => void;

const listeners = new Set<AuthStateListener>();

/** Calls `listener` with every auth state Firebase reports from now on; returns the unsubscribe function. */
export function onProviderAuthState(listener: AuthStateListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by firebase-auth.ts from `onAuthStateChanged`. */
export function reportProviderAuthState(signedIn: boolean): void {
  for (const listener of listeners) listener(signedIn);
}

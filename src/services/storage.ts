/**
 * Browser storage under the spec's key names (§3). Every access is guarded: storage can be disabled
 * (private modes, blocked cookies), and a sign-in must not crash because of it.
 */
import { readStorage as read, STORAGE_KEYS } from './storage-keys';

export { STORAGE_KEYS };

function write(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Storage unavailable: the session then lasts as long as the page, which is the best we can do.
  }
}

const local = () => window.localStorage;
const session = () => window.sessionStorage;

export const storage = {
  getSessionToken: () => read(local, STORAGE_KEYS.sessionToken),
  setSessionToken: (token: string) => write(local, STORAGE_KEYS.sessionToken, token),
  setDeepLink: (link: string) => write(local, STORAGE_KEYS.deepLink, link),
  /** Sign-out and a failed restore clear all three local keys the spec names. */
  clearSession: () => {
    write(local, STORAGE_KEYS.sessionToken, null);
    write(local, STORAGE_KEYS.deepLink, null);
    write(local, STORAGE_KEYS.googleAccessToken, null);
  },
  markRedirectPending: (now: number) => {
    write(session, STORAGE_KEYS.redirectPending, 'true');
    write(session, STORAGE_KEYS.redirectStartedAt, String(now));
  },
  isRedirectPending: () => read(session, STORAGE_KEYS.redirectPending) === 'true',
  markAppLinkAfterSignIn: (now: number) => write(session, STORAGE_KEYS.appLinkAfterSignIn, String(now)),
  /** When a sign-in last opened the app's link, or null; read once (it is removed). */
  takeAppLinkAfterSignIn: (): number | null => {
    const value = Number(read(session, STORAGE_KEYS.appLinkAfterSignIn));
    write(session, STORAGE_KEYS.appLinkAfterSignIn, null);
    return Number.isFinite(value) && value > 0 ? value : null;
  },
  clearRedirectPending: () => {
    write(session, STORAGE_KEYS.redirectPending, null);
    write(session, STORAGE_KEYS.redirectStartedAt, null);
  },
};

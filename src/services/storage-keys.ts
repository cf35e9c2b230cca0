/**
 * The browser storage keys the spec names (§3) and the guarded read, apart from src/services/storage.ts so
 * that the entry script (src/boot.ts, through src/services/early-answers.ts) can read the session token
 * before the first paint without bringing the app's chunk, where storage.ts rides.
 */
export const STORAGE_KEYS = {
  /** Local: the API session token. */
  sessionToken: 'sessionToken',
  /** Local: the last desktop hand-off link built (spec: "token"). */
  deepLink: 'token',
  /** Local: never written (design §8), but cleared on sign-out for users of older versions. */
  googleAccessToken: 'google_access_token',
  /** Session: a full-page redirect sign-in is pending, and since when (ms since epoch). */
  redirectPending: 'veil.signIn.redirectPending',
  redirectStartedAt: 'veil.signIn.redirectStartedAt',
  /** Session: when a sign-in opened the desktop app's link (ms since epoch); /account reads it once. */
  appLinkAfterSignIn: 'veil.signIn.appLinkOpenedAt',
  /** Local: the platform chosen for each WireGuard device made in this browser, by device id (issue 45 item 3). */
  wireguardPlatforms: 'veil.wireguard.platforms',
} as const;

/** A stored value, or null; storage can be disabled (private modes, blocked cookies), and reading it then throws. */
export function readStorage(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

/**
 * Sign-in error catalogue (spec §8) and the helpers that read provider errors.
 * Pure functions; no side effects.
 */
import type { ApiErrorCode } from '../contract/api';

/** The API's code for a sign-in refused within the deletion cool-down (a type import: no zod in the bundle). */
const RECENTLY_DELETED: ApiErrorCode = 'recently_deleted';

/** The title of a sign-in refused within the deletion cool-down: the toast's, and the sign-in card's (issue 45, T17). */
export const RECENTLY_DELETED_TITLE = 'Account Recently Deleted';

export interface SignInErrorInfo {
  message: string;
  /** Whether the user may simply try again. */
  retry: boolean;
}

/** Firebase Auth error code -> user-visible message and retry flag (spec §8, exact texts). */
const SIGN_IN_ERROR_CATALOGUE: Readonly<Record<string, SignInErrorInfo>> = {
  'auth/popup-closed-by-user': { message: 'Sign-in window was closed. Please try again.', retry: true },
  'auth/cancelled-popup-request': { message: 'Another sign-in is in progress. Please wait.', retry: false },
  'auth/popup-blocked': {
    message: "Pop-up was blocked by your browser. We'll use a redirect instead.",
    retry: true,
  },
  'auth/unauthorized-domain': { message: 'This domain is not authorized. Please contact support.', retry: false },
  'auth/network-request-failed': {
    message: 'Network error. Please check your connection and try again.',
    retry: true,
  },
  'auth/too-many-requests': { message: 'Too many attempts. Please wait a moment and try again.', retry: true },
  'auth/internal-error': { message: 'An internal error occurred. Please try again.', retry: true },
  'auth/invalid-credential': { message: 'Invalid credentials. Please try signing in again.', retry: true },
  'auth/user-disabled': { message: 'This account has been disabled. Please contact support.', retry: false },
  'auth/operation-not-allowed': {
    message: 'This sign-in method is not enabled. Please contact support.',
    retry: false,
  },
};

/** Any code not in the catalogue (spec §8 "any other"). */
const UNKNOWN_SIGN_IN_ERROR: SignInErrorInfo = {
  message: 'An error occurred during sign-in. Please try again.',
  retry: true,
};

/**
 * Popup errors after which the product falls back to a full-page redirect (spec §4 step 2). A popup the
 * customer closed is not among them (docs/decisions.md): closing it is a choice, answered with the
 * catalogue's "Sign-in window was closed. Please try again.", not with a redirect they did not ask for.
 */
const POPUP_FALLBACK_CODES: readonly string[] = ['auth/popup-blocked', 'auth/cancelled-popup-request'];

/**
 * Whether a provider error leaves nothing to try again on this page: the catalogue's "no retry" entries
 * (unauthorized domain, user disabled, operation not allowed). The page then disables its sign-in buttons
 * and shows Contact Support (issue 11 item 6). The popup fallbacks are retried by a redirect, so not these.
 */
export function needsSupport(code: string | undefined): boolean {
  if (code === undefined || POPUP_FALLBACK_CODES.includes(code)) return false;
  return Object.hasOwn(SIGN_IN_ERROR_CATALOGUE, code) && SIGN_IN_ERROR_CATALOGUE[code]!.retry === false;
}

/** The `code` of a Firebase-style error (`{ code: 'auth/…' }`), if it has one. */
function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const { code } = error as { code: unknown };
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Maps a provider (Firebase) error to the catalogue entry. */
export function describeSignInError(error: unknown): SignInErrorInfo & { code: string | undefined } {
  const code = errorCode(error);
  const entry = code !== undefined ? SIGN_IN_ERROR_CATALOGUE[code] : undefined;
  return { code, ...(entry ?? UNKNOWN_SIGN_IN_ERROR) };
}

export function isPopupFallbackError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && POPUP_FALLBACK_CODES.includes(code);
}

/**
 * The backend refuses a sign-in within the deletion cool-down: by its code `recently_deleted`; an answer
 * without that code still counts when its message contains "recently deleted" (the spec's rule, kept as
 * the fallback for an API that predates codes).
 */
export function isRecentlyDeletedError(error: unknown): boolean {
  if (errorCode(error) === RECENTLY_DELETED) return true;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return message.toLowerCase().includes('recently deleted');
}

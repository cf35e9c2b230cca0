/**
 * Where to go after a sign-in (spec §4 "Sign-in flow" step 5): the predicates the deep-link machine uses as
 * named guards. The spec's whole rule written as one function is the tests' oracle
 * (tests/machines/deep-link-oracle.ts), not product code.
 */
import type { BrowserLocation, SignInMode } from './types';

export interface DeepLinkInput extends BrowserLocation {
  subscriptionActive: boolean;
  isDesktop: boolean;
  /** The sign-in machine passes a silent sign-in as `redirect`: only a popup leaves the page where it was. */
  mode: Exclude<SignInMode, 'silent'>;
}

/** A redirect sign-in opens the desktop link only on /success, /subscribe, or with ?openapp=true. */
export function redirectAllowsDesktopLink(location: BrowserLocation): boolean {
  if (location.pathname === '/success' || location.pathname === '/subscribe') return true;
  return new URLSearchParams(location.search).get('openapp') === 'true';
}

export function mayOpenDesktopLink(input: Pick<DeepLinkInput, 'mode' | 'pathname' | 'search'>): boolean {
  return input.mode === 'popup' || redirectAllowsDesktopLink(input);
}

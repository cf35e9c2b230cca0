/**
 * Where to go after a sign-in (spec §4 "Sign-in flow" step 5). Pure; the deep-link machine uses the same
 * predicates as named guards.
 */
import type { BrowserLocation } from './types';

type SignInMode = 'popup' | 'redirect';

export interface DeepLinkInput extends BrowserLocation {
  subscriptionActive: boolean;
  isDesktop: boolean;
  mode: SignInMode;
}

export type DeepLinkOutcome = 'openDesktopApp' | '/account' | '/subscribe';

/** A redirect sign-in opens the desktop link only on /success, /subscribe, or with ?openapp=true. */
export function redirectAllowsDesktopLink(location: BrowserLocation): boolean {
  if (location.pathname === '/success' || location.pathname === '/subscribe') return true;
  return new URLSearchParams(location.search).get('openapp') === 'true';
}

export function mayOpenDesktopLink(input: Pick<DeepLinkInput, 'mode' | 'pathname' | 'search'>): boolean {
  return input.mode === 'popup' || redirectAllowsDesktopLink(input);
}

export function decideDeepLink(input: DeepLinkInput): DeepLinkOutcome {
  if (!input.subscriptionActive) return '/subscribe';
  if (!input.isDesktop) return '/account';
  return mayOpenDesktopLink(input) ? 'openDesktopApp' : '/account';
}

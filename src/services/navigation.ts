/**
 * Navigation for the machines' `navigate` action. A guard that sent a visitor to `/signin` remembers the
 * page in `?redirect=`; once signed in, that page wins over the default destination (`/account` or
 * `/subscribe`), so a visitor who asked for their account lands on it.
 */
import type { NavigateParams } from '../../machines/types';

/** A same-origin path from `?redirect=`, or null; anything else (another origin, `//host`) is ignored. */
export function safeReturnPath(search: string, origin: string): string | null {
  const value = new URLSearchParams(search).get('redirect');
  if (!value || !value.startsWith('/') || value.startsWith('//')) return null;
  try {
    const url = new URL(value, origin);
    if (url.origin !== origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

export function destinationFor(params: NavigateParams, location: { search: string; origin: string }): string {
  if (params.to === '/signin' && params.redirect) return `/signin?redirect=${encodeURIComponent(params.redirect)}`;
  if (params.to === '/account' || params.to === '/subscribe') {
    return safeReturnPath(location.search, location.origin) ?? params.to;
  }
  return params.to;
}

/**
 * Opens a fixed app link (/success's, /cancel's): the browser hands it to the app, if one is installed.
 * Here, in the app's own chunk, so those pages fetch nothing more for it.
 */
export async function openAppLink(link: string): Promise<void> {
  window.location.href = link;
}

/**
 * The hand-off to the desktop app (design §7): a one-time hand-off token minted by the API travels in the
 * custom-scheme link, never the session token. Local `token` keeps the last link built, as the spec names it.
 */
import { brand } from '../config/brand';
import { storage } from './storage';

export async function openDesktopApp(sessionToken: string): Promise<string> {
  const { api } = await import('./api-client');
  const handoffToken = await api.createHandoff(sessionToken);
  const link = brand.deepLinks.auth(handoffToken);
  storage.setDeepLink(link);
  window.location.href = link;
  return link;
}

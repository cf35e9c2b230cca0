/**
 * The hand-off to the desktop app (design §7): a one-time hand-off token minted by the API travels in the
 * custom-scheme link, never the session token. Local `token` keeps the last link built, as the spec names it.
 * Loaded only with the sign-in code and the account page, both lazily, so it imports the API client statically.
 */
import { brand } from '../config/brand';
import { api } from './api-client';
import { storage } from './storage';

export async function openDesktopApp(sessionToken: string, codeChallenge?: string): Promise<string> {
  const handoffToken = await api.createHandoff(sessionToken, codeChallenge);
  const link = brand.deepLinks.auth(handoffToken);
  storage.setDeepLink(link);
  window.location.href = link;
  return link;
}

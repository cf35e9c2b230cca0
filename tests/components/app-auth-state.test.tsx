/**
 * The composed app listens to Firebase Auth (spec §4 "Session restore", issue 11 item 2): once Firebase is
 * loaded, firebase-auth.ts reports each `onAuthStateChanged` through src/services/auth-state.ts, and the
 * app-lifetime session actor receives it as `auth.changed` with the stored session token.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { createAppActors } from '../../src/app/actors/app-actors';
import { stopAppSystem } from '../../src/app/actors/app-system';
import { reportProviderAuthState } from '../../src/services/auth-state';
import { googleSession } from '../machines/fixtures';
import { removeClientConfig, writeClientConfig } from './client-config';

beforeEach(() => {
  writeClientConfig();
  localStorage.clear();
});
let detach: (() => void) | null = null;
// XState warns when an event reaches a stopped actor: a previous test's app still listening to the page.
const warn = vi.spyOn(console, 'warn');
afterEach(() => {
  removeClientConfig();
  detach?.();
  expect(warn).not.toHaveBeenCalled();
  warn.mockClear();
});

async function signedOutApp() {
  const actors = createAppActors({ navigate: () => {} });
  detach = actors.detachFromPage;
  const session = await actors.session.load();
  await waitFor(session, (state) => state.matches('signedOut'));
  // The session is a child of the app's root, which alone may stop it.
  return { session, stop: () => stopAppSystem(actors.system) };
}

describe('Firebase auth state reaches the session', () => {
  it('the provider signing out (in this tab or another) signs the page out', async () => {
    const { session, stop } = await signedOutApp();
    session.send({ type: 'session.signedIn', session: googleSession });
    expect(session.getSnapshot().hasTag('signedIn')).toBe(true);
    reportProviderAuthState(false);
    expect(session.getSnapshot().value).toBe('signedOut');
    expect(session.getSnapshot().context.user).toBeNull();
    stop();
  });

  it('the provider signed in with a session stored by another tab: that session is restored', async () => {
    const { session, stop } = await signedOutApp();
    localStorage.setItem('sessionToken', 'from-another-tab');
    reportProviderAuthState(true);
    expect(session.getSnapshot().value).toBe('restoring');
    expect(session.getSnapshot().context.sessionToken).toBe('from-another-tab');
    stop();
  });
});

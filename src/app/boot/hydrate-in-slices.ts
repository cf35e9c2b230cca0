import { startTransition, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { SessionHandle } from '../actors/session-handle';
import { storage } from '../../services/storage';
import { whenIdle, yieldToMain } from './main-thread';

/**
 * Hands a prerendered page to React, as both entries do (src/main.tsx, src/main-public.tsx; issue 25).
 * Evaluating the app's code was one task; hydrating is the next. Inside a transition React hydrates in
 * slices of a few milliseconds and yields between them (an ordinary hydration is one uninterrupted task:
 * 250 to 350 ms at a phone's speed), so the page can answer a tap meanwhile.
 *
 * The session (XState, the machine and its services) is not needed to hydrate a public page, only for the
 * header's account area, which keeps its placeholder until the session has settled: it loads once the
 * browser is idle, after the hydration, not beside it (issue 12 took it off the first load). With no session
 * stored there is nothing to restore: the header reads signed out and the session's code stays on the server
 * until a sign-in or a guard needs it (issue 45 item 9: ~20 KB gzip a first-time visitor never uses).
 */
export async function hydrateInSlices(container: HTMLElement, app: ReactNode, session: SessionHandle): Promise<void> {
  await yieldToMain();
  startTransition(() => {
    hydrateRoot(container, app);
  });
  if (storage.getSessionToken() === null) session.readAsSignedOut();
  else whenIdle(() => void session.load());
}

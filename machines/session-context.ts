/**
 * The session machine's context and its value before start-up. A module of its own, without XState: the
 * SPA's first load reads the session as "starting" from it before the machine's code has arrived
 * (src/app/actors/session-handle.ts, issue 12).
 */
import type { Subscription } from '../contract/api';
import type { SessionUser } from './types';

export interface SessionContext {
  user: SessionUser | null;
  subscription: Subscription | null;
  sessionToken: string | null;
  /** Start-up failure message for the "Authentication Error" page. */
  error: string | null;
  /** Failed attempts to reach the API while restoring (capped at `MAX_COUNTED_RETRIES`); sets the back-off. */
  retries: number;
}

export const EMPTY_SESSION_CONTEXT: SessionContext = { user: null, subscription: null, sessionToken: null, error: null, retries: 0 };

/** What screens ask of the session's state, rather than naming its states. */
export type SessionTag = 'loading' | 'reconnecting' | 'failed' | 'signedIn' | 'refreshing' | 'signingOut';

/** The tags of the machine's initial state (`initialising`): a test holds the two equal. */
export const STARTING_SESSION_TAGS: readonly SessionTag[] = ['loading'];

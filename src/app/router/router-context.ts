import type { AppActors } from '../actors/app-actors';

/** What every route's guard can read (TanStack Router context): the app's long-lived actors. */
export interface RouterContext {
  actors: AppActors;
  /**
   * The build is writing a page's shell (src/prerender.tsx): guards let the page render in its loading state,
   * since no session will ever be known there (issue 22 item 6).
   */
  prerendering?: boolean;
}

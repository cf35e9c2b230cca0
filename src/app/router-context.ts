import type { AppActors } from './app-actors';

/** What every route's guard can read (TanStack Router context): the app's long-lived actors. */
export interface RouterContext {
  actors: AppActors;
}

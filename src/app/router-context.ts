/** What every route's guard can read (TanStack Router context). Filled by the app at start-up. */
export interface RouterContext {}

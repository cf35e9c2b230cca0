/**
 * The React tree and router of the SPA, shared by the browser (src/main.tsx) and the build's prerender
 * step (src/prerender.tsx): one tree in both places, so hydration finds the markup it would render.
 */
import { StrictMode } from 'react';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { LazyNotifications } from '../frame/lazy-notifications';
import { routeTree } from '../../routeTree.gen';
import type { AppActors } from '../actors/app-actors';
import { AppActorsContext } from '../actors/app-context';
import { AppRoot } from './app-root';

export function createAppRouter(actors: AppActors, history?: RouterHistory, { prerendering = false } = {}) {
  return createRouter({ routeTree, context: { actors, prerendering }, defaultPreload: 'intent', history });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

export function AppTree({ actors, router }: { actors: AppActors; router: AppRouter }) {
  return (
    <StrictMode>
      <LazyNotifications />
      <AppActorsContext.Provider value={actors}>
        <AppRoot router={router} />
      </AppActorsContext.Provider>
    </StrictMode>
  );
}

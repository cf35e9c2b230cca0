/**
 * A public page's React tree without the router (issues 25 and 32), shared by the browser
 * (src/main-public.tsx) and the build's prerender step (src/prerender.tsx), so hydration finds the markup
 * it would render. The page is the router's route's (src/routes/) in the same frame; only its links differ:
 * plain anchors (src/components/site-link.tsx), since the router is not loaded.
 */
import { StrictMode, useMemo, type ComponentType } from 'react';
import { anchorLinksAt, SiteLinkProvider } from '../../components/site-link';
import type { AppActors } from '../actors/app-actors';
import { AppActorsContext } from '../actors/app-context';
import { LazyNotifications } from './lazy-notifications';
import { SiteFrame } from './site-frame';
import { StartUpGate } from './start-up-gate';

export interface PublicTreeProps {
  actors: AppActors;
  /** The page's path, whose links are marked current. */
  path: string;
  /** The page (src/app/pages/public-pages.ts), its code already loaded: nothing may suspend while hydrating. */
  Page: ComponentType;
}

export function PublicTree({ actors, path, Page }: PublicTreeProps) {
  const links = useMemo(() => anchorLinksAt(path), [path]);
  return (
    <StrictMode>
      <LazyNotifications />
      <AppActorsContext.Provider value={actors}>
        <StartUpGate>
          <SiteLinkProvider value={links}>
            <SiteFrame>
              <Page />
            </SiteFrame>
          </SiteLinkProvider>
        </StartUpGate>
      </AppActorsContext.Provider>
    </StrictMode>
  );
}

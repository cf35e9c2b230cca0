/**
 * The home page's React tree without the router (issue 25), shared by the browser (src/main-home.tsx) and
 * the build's prerender step (src/prerender.tsx), so hydration finds the markup it would render. The page
 * is the router's `/` route's (src/routes/index.tsx) in the same frame; only its links differ: plain anchors
 * (src/components/site-link.tsx), since the router is not loaded.
 */
import { StrictMode } from 'react';
import { anchorLinksAt, SiteLinkProvider } from '../../components/site-link';
import { HomePage } from '../../screens/home-page';
import type { AppActors } from '../actors/app-actors';
import { AppActorsContext } from '../actors/app-context';
import { LazyNotifications } from './lazy-notifications';
import { SiteFrame } from './site-frame';
import { StartUpGate } from './start-up-gate';

const homeLinks = anchorLinksAt('/');

export function HomeTree({ actors }: { actors: AppActors }) {
  return (
    <StrictMode>
      <LazyNotifications />
      <AppActorsContext.Provider value={actors}>
        <StartUpGate>
          <SiteLinkProvider value={homeLinks}>
            <SiteFrame>
              <HomePage />
            </SiteFrame>
          </SiteLinkProvider>
        </StartUpGate>
      </AppActorsContext.Provider>
    </StrictMode>
  );
}

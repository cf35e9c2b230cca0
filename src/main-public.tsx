// The public pages' start-up, in place of src/main.tsx (src/boot.ts picks it for a page prerendered from
// src/app/frame/public-tree.tsx): the same actors, the same hydration in slices, without the router
// (issues 25 and 32). The page's own code is the one module its root names (`data-page`).
import type { NavigateParams } from '../machines/types';
import { createAppActors, type AppActors } from './app/actors/app-actors';
import { PublicTree } from './app/frame/public-tree';
import { hydrateInSlices } from './app/boot/hydrate-in-slices';
import { startInspector } from './app/actors/inspector';
import { isPublicPath, loadPublicPage } from './app/pages/public-pages';
import { destinationFor } from './services/navigation';

/**
 * Without the router a flow's navigation loads the page from the server (already on it: nothing to do).
 * After the session's actor runs: a sign-in hands its session over as an event, which the actor stores
 * (the token the next page restores the session from) only once it has started.
 */
function navigateByLoading(actors: () => AppActors) {
  return (params: NavigateParams) => {
    const href = destinationFor(params, window.location);
    if (href === `${window.location.pathname}${window.location.search}`) return;
    void actors()
      .session.load()
      .then(() => window.location.assign(href));
  };
}

async function main() {
  const root = document.getElementById('root')!;
  const path = root.dataset.page;
  if (!isPublicPath(path)) throw new Error(`No public page ${String(path)}`);
  const [inspect, Page] = await Promise.all([startInspector(), loadPublicPage(path)]);
  const actors: AppActors = createAppActors({ inspect, navigate: navigateByLoading(() => actors) });
  await hydrateInSlices(root, <PublicTree actors={actors} path={path} Page={Page} />, actors.session);
}

void main();

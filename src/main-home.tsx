// The home page's start-up, in place of src/main.tsx (src/boot.ts picks it for the page prerendered from
// src/app/frame/home-tree.tsx): the same actors, the same hydration in slices, without the router (issue 25).
import type { NavigateParams } from '../machines/types';
import { createAppActors } from './app/actors/app-actors';
import { HomeTree } from './app/frame/home-tree';
import { hydrateInSlices } from './app/boot/hydrate-in-slices';
import { startInspector } from './app/actors/inspector';
import { destinationFor } from './services/navigation';

/** Without the router a flow's navigation loads the page from the server (already on it: nothing to do). */
function navigateByLoading(params: NavigateParams) {
  const href = destinationFor(params, window.location);
  if (href !== `${window.location.pathname}${window.location.search}`) window.location.assign(href);
}

async function main() {
  const inspect = await startInspector();
  const actors = createAppActors({ inspect, navigate: navigateByLoading });
  await hydrateInSlices(document.getElementById('root')!, <HomeTree actors={actors} />, actors.session);
}

void main();

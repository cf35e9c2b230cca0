// The home page's start-up, in place of src/main.tsx (src/boot.ts picks it for the page prerendered from
// src/app/home-tree.tsx): the same actors, the same hydration in slices, without the router (issue 25).
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { NavigateParams } from '../machines/types';
import { createAppActors } from './app/app-actors';
import { HomeTree } from './app/home-tree';
import { startInspector } from './app/inspector';
import { whenIdle, yieldToMain } from './app/main-thread';
import { destinationFor } from './services/navigation';

/** Without the router a flow's navigation loads the page from the server (already on it: nothing to do). */
function navigateByLoading(params: NavigateParams) {
  const href = destinationFor(params, window.location);
  if (href !== `${window.location.pathname}${window.location.search}`) window.location.assign(href);
}

async function main() {
  const inspect = await startInspector();
  const actors = createAppActors({ inspect, navigate: navigateByLoading });
  const root = document.getElementById('root')!;
  // As src/main.tsx: a task of its own, then a hydration React does in slices, yielding between them.
  await yieldToMain();
  startTransition(() => {
    hydrateRoot(root, <HomeTree actors={actors} />);
  });
  // The header's account area waits for the session, loaded once the browser is idle (src/main.tsx).
  whenIdle(() => void actors.session.load());
}

void main();

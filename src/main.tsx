// The app, started by src/boot.ts once the page has painted (boot.ts loads the stylesheets and sets the colour scheme).
import { startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppActors } from './app/actors/app-actors';
import { AppTree, createAppRouter, type AppRouter } from './app/router/app-tree';
import { startInspector } from './app/actors/inspector';
import { hydrateInSlices } from './app/boot/hydrate-in-slices';
import { yieldToMain } from './app/boot/main-thread';
import { destinationFor } from './services/navigation';

/**
 * Renders the app in place of what the container shows, as a transition: React renders in slices of a few
 * milliseconds and yields between them (issue 25), and what the container shows stays until the commit.
 */
function renderInSlices(container: HTMLElement, app: ReactNode) {
  const root = createRoot(container);
  startTransition(() => root.render(app));
}

async function main() {
  const inspect = await startInspector();
  let router: AppRouter | null = null;
  const actors = createAppActors({
    inspect,
    navigate: (params) => void router?.navigate({ href: destinationFor(params, window.location) }),
  });
  router = createAppRouter(actors);
  // Making the router (reading its route tree) and its first match are each 10 to 25 ms on a fast machine, four
  // times that on a phone: one task each, not one of both (issue 32 item 4).
  await yieldToMain();

  const root = document.getElementById('root')!;
  if (!root.hasChildNodes()) {
    // A page that depends on the session and arrives empty (/subscribe): rendered here alone, and the
    // session loaded at once, since the page waits for it.
    void actors.session.load();
    renderInSlices(root, <AppTree actors={actors} router={router} />);
    return;
  }
  if (root.hasAttribute('data-shell')) {
    // A prerendered shell (/account: header, footer and a spinner, issue 22 item 6): it stays on screen while
    // the session loads and the route's guard decides, then the page is rendered over it in one commit.
    void actors.session.load();
    await router.load();
    renderInSlices(root, <AppTree actors={actors} router={router} />);
    return;
  }
  // A prerendered page (src/prerender.tsx): load its route's code first, so the first render matches the
  // HTML; and render the router's tree as on the server, where no Suspense boundary wraps the matches.
  await router.load();
  router.ssr = { manifest: undefined };
  await hydrateInSlices(root, <AppTree actors={actors} router={router} />, actors.session);
}

void main();

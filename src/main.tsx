// What the shell and the home page are drawn with: Mantine's baseline and variables, and our theme's.
// Mantine's component styles arrive with the first part that uses Mantine (src/theme/mantine-root.tsx).
// Mantine's own rules all sit in the `mantine` cascade layer, as the component styles will, so that a
// baseline rule such as `button { font: inherit }` cannot override a component; the theme's variables
// stay outside it, so they win over the defaults that the component styles declare again.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import 'virtual:theme-variables.css';
import './theme/first-paint.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { followSystemColorScheme } from './theme/color-scheme';
import { createAppActors } from './app/app-actors';
import { AppTree, createAppRouter, type AppRouter } from './app/app-tree';
import { startInspector } from './app/inspector';
import { destinationFor } from './services/navigation';

async function main() {
  followSystemColorScheme();
  const inspect = await startInspector();
  let router: AppRouter | null = null;
  const actors = createAppActors({
    inspect,
    navigate: (params) => void router?.navigate({ href: destinationFor(params, window.location) }),
  });
  router = createAppRouter(actors);

  const root = document.getElementById('root')!;
  if (!root.hasChildNodes()) {
    // The shell of a page that depends on the session (/account, /subscribe): rendered here alone.
    createRoot(root).render(<AppTree actors={actors} router={router} />);
    return;
  }
  // A prerendered page (src/prerender.tsx): load its route's code first, so the first render matches the
  // HTML; and render the router's tree as on the server, where no Suspense boundary wraps the matches.
  await router.load();
  router.ssr = { manifest: undefined };
  hydrateRoot(root, <AppTree actors={actors} router={router} />);
}

void main();

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter } from '@tanstack/react-router';
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
import { followSystemColorScheme } from './theme/color-scheme';
import { LazyNotifications } from './components/lazy-notifications';
import { createAppActors, type AppActors } from './app/app-actors';
import { AppActorsContext } from './app/app-context';
import { AppRoot } from './app/app-root';
import { startInspector } from './app/inspector';
import { destinationFor } from './services/navigation';
import { routeTree } from './routeTree.gen';

function createAppRouter(actors: AppActors) {
  return createRouter({ routeTree, context: { actors }, defaultPreload: 'intent' });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

async function main() {
  followSystemColorScheme();
  const inspect = await startInspector();
  let router: ReturnType<typeof createAppRouter> | null = null;
  const actors = createAppActors({
    inspect,
    navigate: (params) => void router?.navigate({ href: destinationFor(params, window.location) }),
  });
  router = createAppRouter(actors);

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <LazyNotifications />
      <AppActorsContext.Provider value={actors}>
        <AppRoot session={actors.session} router={router} />
      </AppActorsContext.Provider>
    </StrictMode>,
  );
}

void main();

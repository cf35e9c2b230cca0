import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createRouter } from '@tanstack/react-router';
import { MantineProvider } from '@mantine/core';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { cssVariablesResolver, theme } from './theme/theme';
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
  const inspect = await startInspector();
  let router: ReturnType<typeof createAppRouter> | null = null;
  const actors = createAppActors({
    inspect,
    navigate: (params) => void router?.navigate({ to: destinationFor(params, window.location) }),
  });
  router = createAppRouter(actors);

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        <LazyNotifications />
        <AppActorsContext.Provider value={actors}>
          <AppRoot session={actors.session} router={router} />
        </AppActorsContext.Provider>
      </MantineProvider>
    </StrictMode>,
  );
}

void main();

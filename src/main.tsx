import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { MantineProvider } from '@mantine/core';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { cssVariablesResolver, theme } from './theme/theme';
import { LazyNotifications } from './components/lazy-notifications';
import { routeTree } from './routeTree.gen';

const router = createRouter({ routeTree, context: {}, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <LazyNotifications />
      <RouterProvider router={router} />
    </MantineProvider>
  </StrictMode>,
);

import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from '@tanstack/react-router';
import { MantineRoot } from '../../src/theme/mantine-root';
import { SiteLinkProvider } from '../../src/components/site-link';
import { RouterSiteLink } from '../../src/app/router/router-site-link';

/**
 * Renders `ui` as the layout of a small in-memory router whose every path resolves, so components that
 * use <Link> and read the location can be tested at any URL. The site's links are the router's, as in the
 * app's layout (src/app/router/app-layout.tsx).
 */
export async function renderAtPath(path: string, ui: ReactNode, notFound?: () => ReactNode) {
  const rootRoute = createRootRoute({
    component: () => (
      <SiteLinkProvider value={RouterSiteLink}>
        {ui}
        <Outlet />
      </SiteLinkProvider>
    ),
    notFoundComponent: notFound,
  });
  const pages = ['/', '/support', '/download', '/privacy', '/terms', '/status', '/signin', '/subscribe', '/account'].map((routePath) =>
    createRoute({ getParentRoute: () => rootRoute, path: routePath, component: () => <p>page {routePath}</p> }),
  );
  const router = createRouter({
    routeTree: rootRoute.addChildren(pages),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  const result = render(
    <MantineRoot>
      <RouterProvider router={router} />
    </MantineRoot>,
  );
  await router.load();
  return { ...result, router };
}

/**
 * The build's prerender entry (issue 12): Vite builds it for Node after the browser build, and
 * scripts/lib/prerender.ts renders every public page with it into dist/pages/. Each page is the tree the
 * browser hydrates (a public page's src/app/frame/public-tree.tsx, the router's src/app/router/app-tree.tsx
 * for the account page's shell and the 404 page) in the state of a visitor whose session is not known yet.
 */
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryHistory } from '@tanstack/react-router';
import type { AppActors } from './app/actors/app-actors';
import { AppTree, createAppRouter } from './app/router/app-tree';
import { PublicTree } from './app/frame/public-tree';
import { loadPublicPage, type PublicPath } from './app/pages/public-pages';
import { createSessionHandle } from './app/actors/session-handle';
import { NOT_FOUND_DESCRIPTION, PAGE_DESCRIPTIONS } from './app/boot/page-descriptions';
import { NOT_FOUND_TITLE, PAGE_TITLES } from './app/boot/page-meta';

export interface PageMeta {
  title: string;
  description: string;
}

/**
 * The public pages, prerendered from their own tree without the router (src/app/pages/public-pages.ts); the
 * others depend on the session and render in the browser only.
 */
export const PRERENDERED_ROUTES = ['/', '/support', '/download', '/privacy', '/terms', '/signin', '/success', '/cancel', '/status'] as const satisfies readonly PublicPath[];
export const BROWSER_ONLY_ROUTES = ['/subscribe', '/staff'] as const;
/**
 * Pages that depend on the session, prerendered as their loading state (header, footer, spinner) so that they
 * paint at once (issue 22 item 6); the browser renders them afresh once the session is known.
 */
export const SHELL_ROUTES = ['/account'] as const;
/** A path no route matches: the router renders its 404 page there. */
const NOT_FOUND_PATH = '/__prerendered-404';

/** Actors of a visitor before start-up: the session in its starting (loading) view, never loaded. */
function prerenderActors(): AppActors {
  const never = () => new Promise<never>(() => {});
  return {
    session: createSessionHandle(never),
    getSignIn: never,
    signInWith: () => {},
    prepareSignIn: () => {},
    system: {},
    detachFromPage: () => {},
  };
}

export interface RenderedPage {
  route: string;
  html: string;
  meta: PageMeta;
  /** A shell (SHELL_ROUTES): replaced, not hydrated, by the browser. */
  shell?: boolean;
  /** A public page: hydrated by src/main-public.tsx, without the router. */
  entry?: 'public';
}

/** Markup the browser's hydration would render, or the build fails: no part may fail or suspend. */
function renderOrFail(path: string, tree: ReactNode): string {
  // renderToString, not the streaming renderers: those move large Suspense boundaries out of place and
  // put them back with inline scripts, which the Content Security Policy refuses. A part that failed or
  // suspended would leave the client-rendering marker of React.
  const html = renderToString(tree);
  if (html.includes('<!--$!-->') || html.includes('<!--$?-->')) throw new Error(`prerender of ${path}: a part failed or suspended`);
  return html;
}

async function render(path: string, { shell = false } = {}): Promise<string> {
  const actors = prerenderActors();
  const router = createAppRouter(actors, createMemoryHistory({ initialEntries: [path] }), { prerendering: shell });
  // The route's code is loaded here, so nothing suspends.
  await router.load();
  return renderOrFail(path, <AppTree actors={actors} router={router} />);
}

export async function renderPages(): Promise<{ pages: RenderedPage[]; notFound: RenderedPage }> {
  const pages: RenderedPage[] = [];
  for (const route of PRERENDERED_ROUTES) {
    const meta = { title: PAGE_TITLES[route]!, description: PAGE_DESCRIPTIONS[route]! };
    const Page = await loadPublicPage(route);
    pages.push({ route, html: renderOrFail(route, <PublicTree actors={prerenderActors()} path={route} Page={Page} />), meta, entry: 'public' });
  }
  for (const route of SHELL_ROUTES) {
    pages.push({ route, html: await render(route, { shell: true }), meta: { title: PAGE_TITLES[route]!, description: PAGE_DESCRIPTIONS[route]! }, shell: true });
  }
  const notFoundMeta = { title: NOT_FOUND_TITLE, description: NOT_FOUND_DESCRIPTION };
  return { pages, notFound: { route: '404', html: await render(NOT_FOUND_PATH), meta: notFoundMeta } };
}

/**
 * The public pages, each hydrated by the public entry without the router (src/main-public.tsx, issues 25
 * and 32) and prerendered from the same module (src/prerender.tsx). A page's module is
 * `src/features/<name>/<name>.tsx` (`home` for `/`): the build's prerender step and scripts/size.mjs find the
 * page's code in Vite's manifest by that name (`publicPageModule`).
 */
import type { ComponentType } from 'react';

const PUBLIC_PAGES = {
  '/': () => import('../../features/home/home'),
  '/support': () => import('../../features/support/support'),
  '/download': () => import('../../features/download/download'),
  '/privacy': () => import('../../features/privacy/privacy'),
  '/terms': () => import('../../features/terms/terms'),
  '/signin': () => import('../../features/signin/signin'),
  '/success': () => import('../../features/success/success'),
  '/cancel': () => import('../../features/cancel/cancel'),
  '/status': () => import('../../features/status/status'),
} satisfies Record<string, () => Promise<{ PublicPage: ComponentType }>>;

export type PublicPath = keyof typeof PUBLIC_PAGES;

export function isPublicPath(path: string | undefined): path is PublicPath {
  return path !== undefined && Object.hasOwn(PUBLIC_PAGES, path);
}

/** The page's component, its code loaded. */
export async function loadPublicPage(path: PublicPath): Promise<ComponentType> {
  const { PublicPage } = await PUBLIC_PAGES[path]();
  return PublicPage;
}

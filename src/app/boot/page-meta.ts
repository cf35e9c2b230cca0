/**
 * Each route's <title> (issue 12: search engines and tabs say what the page is). The build writes it, with
 * the page's description (src/app/boot/page-descriptions.ts, kept off the browser's bundle), into the
 * prerendered pages (src/prerender.tsx); `usePageTitle` keeps the title current as the visitor moves
 * between pages in the browser.
 */
import { useEffect } from 'react';
import { useRouterState } from '@tanstack/react-router';
import { brand } from '../../config/brand';

const titled = (page: string) => `${page} | ${brand.productName}`;

export const PAGE_TITLES: Record<string, string> = {
  '/': `${brand.productName}: Secure Your Digital Freedom`,
  '/support': titled('Support'),
  '/download': titled('Download'),
  '/privacy': titled('Privacy Policy'),
  '/terms': titled('Terms of Service'),
  '/signin': titled('Sign In'),
  '/success': titled('Payment Successful'),
  '/cancel': titled('Payment Cancelled'),
  '/status': titled('Server Status'),
  '/account': titled('My Account'),
  '/subscribe': titled('Subscribe'),
};

export const NOT_FOUND_TITLE = titled('Page Not Found');

/** `/support/` is `/support`; a path no route matches has the 404 page's title. */
function pageTitleFor(pathname: string): string {
  const route = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PAGE_TITLES[route] ?? NOT_FOUND_TITLE;
}

/** Writes the current route's title into the document after each navigation. */
export function usePageTitle() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  useEffect(() => {
    document.title = pageTitleFor(pathname);
  }, [pathname]);
}

import type { ReactNode } from 'react';
import { SiteLinkProvider } from '../../components/site-link';
import { usePageTitle } from '../boot/page-meta';
import { RouterSiteLink } from './router-site-link';
import { SiteFrame } from '../frame/site-frame';

/** The root route's layout: the site's frame, whose links the router follows, and the title of each route. */
export function AppLayout({ children }: { children: ReactNode }) {
  usePageTitle();
  return (
    <SiteLinkProvider value={RouterSiteLink}>
      <SiteFrame>{children}</SiteFrame>
    </SiteLinkProvider>
  );
}

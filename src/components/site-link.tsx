import { createContext, useContext, type AnchorHTMLAttributes, type ReactNode } from 'react';

/** The site's own pages that its frame (header, footer, account menu) and the home page link to. */
type SitePath = '/' | '/support' | '/privacy' | '/terms' | '/status' | '/signin' | '/subscribe' | '/account';

export interface SiteLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: SitePath;
  /** Marks the link `aria-current="page"` and `data-active` while its page is the one shown. */
  markCurrent?: boolean;
  children?: ReactNode;
}

export type SiteLinkComponent = (props: SiteLinkProps) => ReactNode;

/**
 * A link as the page's host draws it. Where the router runs (the account area), its Link (client-side
 * navigation, the route's code preloaded on intent: src/app/router/router-site-link.tsx). The public pages
 * hydrate without the router (issues 25 and 32: it is a quarter of the JavaScript the home page would load
 * first), so there a link is a plain anchor and following it loads the next page, prerendered, from the server.
 */
const SiteLinkContext = createContext<SiteLinkComponent | null>(null);
export const SiteLinkProvider = SiteLinkContext.Provider;

export function SiteLink(props: SiteLinkProps) {
  const Host = useContext(SiteLinkContext);
  if (!Host) throw new Error('SiteLink outside a <SiteLinkProvider>');
  return <Host {...props} />;
}

/** Plain anchors for a page shown at `currentPath`, with the attributes the router's Link gives a current page. */
export function anchorLinksAt(currentPath: string): SiteLinkComponent {
  return function AnchorSiteLink({ to, markCurrent = false, children, ...anchor }: SiteLinkProps) {
    const current = markCurrent && to === currentPath;
    return (
      <a href={to} {...anchor} aria-current={current ? 'page' : undefined} data-active={current || undefined}>
        {children}
      </a>
    );
  };
}

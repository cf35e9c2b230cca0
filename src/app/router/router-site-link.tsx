import { Link } from '@tanstack/react-router';
import type { SiteLinkProps } from '../../components/site-link';

/** The site's links where the router runs: client-side navigation, and the route's code preloaded on intent. */
export function RouterSiteLink({ to, markCurrent = false, children, ...anchor }: SiteLinkProps) {
  return (
    <Link
      to={to}
      {...anchor}
      {...(markCurrent ? { activeOptions: { exact: true }, activeProps: { 'aria-current': 'page', 'data-active': true } } : {})}
    >
      {children}
    </Link>
  );
}

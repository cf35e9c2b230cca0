import type { ReactNode } from 'react';
import { SiteHeader, type HeaderAccount } from '../../components/site-header';
import { SiteFooter } from '../../components/site-footer';
import { ConnectionNotice } from '../../components/connection-notice';
import { useAppActors } from '../actors/app-context';
import { useHydrated } from '../../components/use-hydrated';
import { useSessionTag, useSessionView } from '../hooks/use-session';
import classes from '../router/app-layout.module.css';

/**
 * What every page is drawn in: the header with the session's account area, the main landmark, the footer.
 * Used by the router's root route (src/app/router/app-layout.tsx) and by the public pages, which hydrate without
 * the router (src/app/frame/public-tree.tsx).
 */
export function SiteFrame({ children }: { children: ReactNode }) {
  const { session } = useAppActors();
  const email = useSessionView((state) => state.context.user?.email ?? null);
  const status = useSessionView((state) => state.context.subscription?.status ?? null);
  const loading = useSessionTag('loading');
  // Prerendered pages are drawn before the session is known: the account area waits for it (design §5).
  const settled = useHydrated() && !loading;
  const account: HeaderAccount | null | undefined = !settled ? undefined : email ? { email, subscriptionStatus: status } : null;
  const reconnecting = useSessionTag('reconnecting');

  return (
    <div className={classes.page}>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <SiteHeader account={account} onSignOut={() => session.send({ type: 'session.signOut' })} />
      {reconnecting && <ConnectionNotice />}
      <main id="main" className={classes.main}>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

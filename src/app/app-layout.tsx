import type { ReactNode } from 'react';
import { SiteHeader } from '../components/site-header';
import { SiteFooter } from '../components/site-footer';
import classes from './app-layout.module.css';

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className={classes.page}>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <SiteHeader account={null} onSignOut={() => {}} />
      <main id="main" className={classes.main}>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

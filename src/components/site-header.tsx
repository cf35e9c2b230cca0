import { Suspense, lazy, useState } from 'react';
import { useHydrated } from './use-hydrated';
import { brand } from '../config/brand';
import { BrandMark } from './brand-mark';
import { SiteLink } from './site-link';
import type { HeaderAccount } from './header-account';
import { useDownloadHref } from './use-download-href';
import plain from './plain.module.css';
import classes from './site-header.module.css';

// Signed-out visitors never download the menu, nor the Mantine code it is built with.
const AccountMenu = lazy(() => import('./account-menu').then((module) => ({ default: module.AccountMenu })));

const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/support', label: 'Support' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/terms', label: 'Terms' },
] as const;

export type { HeaderAccount };

export interface SiteHeaderProps {
  account: HeaderAccount | null | undefined;
  onSignOut: () => void;
}

/**
 * The header of every page. Plain markup (components/plain.module.css), since it is on the home page's
 * first load; only the signed-in account menu is drawn with Mantine, and loads on its own.
 */
export function SiteHeader({ account, onSignOut }: SiteHeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  // On a prerendered page the toggle does nothing until React has taken the page over: say so.
  const hydrated = useHydrated();
  const closeMenu = () => setMenuOpen(false);

  const navLinks = NAV_LINKS.map((link) => (
    <SiteLink key={link.to} to={link.to} className={classes.link} markCurrent>
      {link.label}
    </SiteLink>
  ));
  const actions =
    account === undefined ? (
      <AccountPlaceholder />
    ) : account ? (
      <SignedInActions account={account} onSignOut={onSignOut} />
    ) : (
      <SignedOutActions />
    );

  return (
    <header className={classes.header}>
      <div className={classes.inner}>
        <SiteLink to="/" className={classes.logo} aria-label={`${brand.productName} home`}>
          <BrandMark />
          <span>{brand.productName}</span>
        </SiteLink>

        <nav aria-label="Main" className={classes.desktopNav}>
          {navLinks}
        </nav>

        <div className={classes.actions}>{actions}</div>

        <button
          type="button"
          className={classes.burger}
          onClick={() => setMenuOpen((open) => !open)}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-disabled={hydrated ? undefined : true}
        >
          <span className={classes.burgerLines} data-opened={menuOpen || undefined} />
        </button>
      </div>

      {menuOpen && (
        // Whatever is chosen in it (a page, the account's links, Sign Out) closes it.
        <div id="mobile-menu" className={classes.mobileMenu} onClick={closeMenu}>
          <nav aria-label="Mobile" className={classes.mobileNav}>
            {navLinks}
          </nav>
          <div className={classes.mobileActions}>{actions}</div>
        </div>
      )}
    </header>
  );
}

function SignedOutActions() {
  const downloadHref = useDownloadHref();
  return (
    <>
      {/* Not on /signin itself, where the page is the sign-in (issue 34): hidden while it is the current page. */}
      <SiteLink to="/signin" className={`${plain.button} ${classes.signIn}`} data-variant="default" markCurrent>
        Sign In
      </SiteLink>
      <a href={downloadHref} className={plain.button}>
        Download App
      </a>
    </>
  );
}

/**
 * Until the session is known: the signed-out buttons' box, invisible and out of reach, so the header keeps
 * its size and a signed-in visitor never sees "Sign In" flash (design §5).
 */
function AccountPlaceholder() {
  return (
    <div className={classes.accountPlaceholder} aria-hidden="true" inert>
      <SignedOutActions />
    </div>
  );
}

function SignedInActions({ account, onSignOut }: { account: HeaderAccount; onSignOut: () => void }) {
  return (
    // Until the menu's code arrives, the same box shows the e-mail, so the header does not jump.
    <Suspense fallback={<div className={classes.accountButton}>{account.email}</div>}>
      <AccountMenu account={account} onSignOut={onSignOut} />
    </Suspense>
  );
}

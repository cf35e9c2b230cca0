import { Suspense, lazy } from 'react';
import { Link } from '@tanstack/react-router';
import { Burger, Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { brand } from '../config/brand';
import { BrandMark } from './brand-mark';
import classes from './site-header.module.css';

const AccountMenu = lazy(() => import('./account-menu').then((module) => ({ default: module.AccountMenu })));

const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/support', label: 'Support' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/terms', label: 'Terms' },
] as const;

/** What the header needs to know about the signed-in customer; null when signed out. */
export interface HeaderAccount {
  email: string;
  subscriptionStatus: string | null;
}

export interface SiteHeaderProps {
  account: HeaderAccount | null;
  onSignOut: () => void;
}

export function SiteHeader({ account, onSignOut }: SiteHeaderProps) {
  const [menuOpen, { toggle, close }] = useDisclosure(false);

  const navLinks = NAV_LINKS.map((link) => (
    <Link
      key={link.to}
      to={link.to}
      className={classes.link}
      activeOptions={{ exact: true }}
      activeProps={{ 'aria-current': 'page', 'data-active': true }}
      onClick={close}
    >
      {link.label}
    </Link>
  ));

  return (
    <header className={classes.header}>
      <div className={classes.inner}>
        <Link to="/" className={classes.logo} aria-label={`${brand.productName} home`}>
          <BrandMark />
          <span>{brand.productName}</span>
        </Link>

        <nav aria-label="Main" className={classes.desktopNav}>
          {navLinks}
        </nav>

        <Group gap="sm" className={classes.actions}>
          {account ? <SignedInActions account={account} onSignOut={onSignOut} /> : <SignedOutActions />}
        </Group>

        <Burger
          opened={menuOpen}
          onClick={toggle}
          hiddenFrom="md"
          size="sm"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
        />
      </div>

      {menuOpen && (
        <Stack id="mobile-menu" className={classes.mobileMenu} gap="xs" hiddenFrom="md">
          <nav aria-label="Mobile" className={classes.mobileNav}>
            {navLinks}
          </nav>
          <Group gap="sm">
            {account ? <SignedInActions account={account} onSignOut={onSignOut} /> : <SignedOutActions />}
          </Group>
        </Stack>
      )}
    </header>
  );
}

function SignedOutActions() {
  return (
    <>
      <Button component={Link} to="/signin" variant="default">
        Sign In
      </Button>
      <Button component="a" href={brand.downloadUrl}>
        Download App
      </Button>
    </>
  );
}

function SignedInActions({ account, onSignOut }: SiteHeaderProps & { account: HeaderAccount }) {
  return (
    // Until the menu's code arrives, the same box shows the e-mail, so the header does not jump.
    <Suspense fallback={<div className={classes.accountButton}>{account.email}</div>}>
      <AccountMenu account={account} onSignOut={onSignOut} />
    </Suspense>
  );
}

import { useCallback, useState } from 'react';
import { Badge, Menu, Text, UnstyledButton } from '@mantine/core';
import { MantineRoot } from '../theme/mantine-root';
import type { HeaderAccount } from './header-account';
import { SiteLink } from './site-link';
import classes from './site-header.module.css';

/**
 * The signed-in header dropdown. Its own module, and its own Mantine island inside the plain header, so
 * signed-out visitors never download the menu or Mantine. Inside the phone menu (the header's
 * `#mobile-menu`) it is no second menu: the address and the account's links are part of that menu
 * (issue 45 note 21), as its page links are.
 */
export function AccountMenu({ account, onSignOut }: { account: HeaderAccount; onSignOut: () => void }) {
  const isPremium = account.subscriptionStatus === 'active';
  const [inPhoneMenu, setInPhoneMenu] = useState(false);
  // Found where it is drawn, so the header (on the home page's first load) needs no byte more to say so.
  const place = useCallback((element: HTMLElement | null) => setInPhoneMenu(element?.closest('#mobile-menu') != null), []);
  const badge = isPremium && (
    <Badge color="green" variant="filled" size="sm" className={classes.accountBadge}>
      Premium
    </Badge>
  );
  if (inPhoneMenu) {
    return (
      <MantineRoot>
        {/* Styled in place: a stylesheet of its own would be named in the home page's script (its 80 KB budget). */}
        <div ref={place} style={{ width: '100%', paddingTop: 'var(--mantine-spacing-xs)', borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '4px 8px', padding: '8px 12px' }}>
            <Text size="sm" c="dimmed">
              Signed in as
            </Text>
            <Text size="sm" fw={600} className={classes.menuEmail}>
              {account.email}
            </Text>
            {badge}
          </div>
          <nav aria-label="Account">
            <SiteLink to="/account" className={classes.link} markCurrent>
              My Account
            </SiteLink>
            {!isPremium && (
              <SiteLink to="/subscribe" className={classes.link} markCurrent>
                Subscribe
              </SiteLink>
            )}
            <button
              type="button"
              className={classes.link}
              style={{ width: '100%', border: 0, background: 'transparent', textAlign: 'start', fontFamily: 'inherit', cursor: 'pointer' }}
              onClick={onSignOut}
            >
              Sign Out
            </button>
          </nav>
        </div>
      </MantineRoot>
    );
  }
  return (
    <MantineRoot>
      {/* In the header (its banner landmark), not a portal; no focus placeholder (an empty child of role=menu): axe. */}
      <Menu position="bottom-end" withinPortal={false} withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <UnstyledButton ref={place} className={classes.accountButton}>
            <Text size="sm" fw={600} truncate="end" className={classes.accountEmail} title={account.email}>
              {account.email}
            </Text>
            {badge}
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          {/* The button may truncate a long address on narrower screens: the menu always shows it whole. */}
          <Menu.Label className={classes.menuEmail}>Signed in as {account.email}</Menu.Label>
          <Menu.Item component={SiteLink} to="/account">
            My Account
          </Menu.Item>
          {!isPremium && (
            <Menu.Item component={SiteLink} to="/subscribe">
              Subscribe
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item onClick={onSignOut}>Sign Out</Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </MantineRoot>
  );
}

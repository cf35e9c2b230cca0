import { Badge, Menu, Text, UnstyledButton } from '@mantine/core';
import { MantineRoot } from '../theme/mantine-root';
import type { HeaderAccount } from './header-account';
import { SiteLink } from './site-link';
import classes from './site-header.module.css';

/**
 * The signed-in header dropdown. Its own module, and its own Mantine island inside the plain header, so
 * signed-out visitors never download the menu or Mantine.
 */
export function AccountMenu({ account, onSignOut }: { account: HeaderAccount; onSignOut: () => void }) {
  const isPremium = account.subscriptionStatus === 'active';
  return (
    <MantineRoot>
      {/* In the header (its banner landmark), not a portal; no focus placeholder (an empty child of role=menu): axe. */}
      <Menu position="bottom-end" withinPortal={false} withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <UnstyledButton className={classes.accountButton}>
            <Text size="sm" fw={600} truncate="end" className={classes.accountEmail} title={account.email}>
              {account.email}
            </Text>
            {isPremium && (
              <Badge color="green" variant="filled" size="sm" className={classes.accountBadge}>
                Premium
              </Badge>
            )}
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

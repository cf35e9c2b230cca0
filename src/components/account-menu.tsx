import { Link } from '@tanstack/react-router';
import { Badge, Menu, Text, UnstyledButton } from '@mantine/core';
import type { HeaderAccount } from './site-header';
import classes from './site-header.module.css';

/** The signed-in header dropdown; its own module so signed-out visitors never download the menu code. */
export function AccountMenu({ account, onSignOut }: { account: HeaderAccount; onSignOut: () => void }) {
  const isPremium = account.subscriptionStatus === 'active';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.accountButton}>
          <Text size="sm" fw={600} truncate="end" maw={220}>
            {account.email}
          </Text>
          {isPremium && (
            <Badge color="green" variant="filled" size="sm">
              Premium
            </Badge>
          )}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/account">
          My Account
        </Menu.Item>
        {!isPremium && (
          <Menu.Item component={Link} to="/subscribe">
            Subscribe
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item onClick={onSignOut}>Sign Out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

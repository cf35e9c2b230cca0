import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Subscription } from '../../contract/api';
import { AccountPage, SignInRequired, type AccountPageProps } from '../../src/screens/account-page';
import { renderAtPath } from './render-with-router';

const noop = () => {};

function props(overrides: Partial<AccountPageProps> = {}): AccountPageProps {
  return {
    user: { email: 'ada@example.com', provider: 'google' },
    subscription: null,
    refreshing: false,
    signingOut: false,
    onSignOut: noop,
    onRefresh: noop,
    onOpenVpnApp: noop,
    autoRenewal: { dialogOpen: false, cancelling: false, onTurnOff: noop, onConfirm: noop, onDismiss: noop, onReEnable: noop },
    deletion: { dialogOpen: false, deleting: false, onDelete: noop, onConfirm: noop, onCancel: noop },
    ...overrides,
  };
}

const subscription = (overrides: Partial<Subscription>): Subscription => ({
  status: 'active',
  cancelAtPeriodEnd: false,
  endDate: '2027-11-23T10:00:00.000Z',
  ...overrides,
});

async function renderAccount(overrides: Partial<AccountPageProps>) {
  await renderAtPath('/account', <AccountPage {...props(overrides)} />);
  return within(await screen.findByRole('region', { name: 'Subscription Status' }));
}

describe('account page', () => {
  test('title, subtitle, account information with the real provider', async () => {
    await renderAtPath('/account', <AccountPage {...props({ user: { email: 'bob@example.com', provider: 'apple' } })} />);
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();
    expect(screen.getByText('Manage your Veil VPN subscription and account settings')).toBeInTheDocument();
    const info = within(screen.getByRole('region', { name: 'Account Information' }));
    expect(info.getByText('bob@example.com')).toBeInTheDocument();
    expect(info.getByText('Receipts, renewal reminders and security notices are e-mailed to this address.')).toBeInTheDocument();
    expect(info.getByText('Apple')).toBeInTheDocument();
    expect(info.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/support');
  });

  test('no subscription: "No active subscription found" and Subscribe Now', async () => {
    const card = await renderAccount({ subscription: null });
    expect(card.getByText('No active subscription found')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Subscribe Now' })).toHaveAttribute('href', '/subscribe');
  });

  test('active with auto-renewal on: badge, default plan, Next Billing date, Open VPN App, Turn Off', async () => {
    const card = await renderAccount({ subscription: subscription({}) });
    expect(card.getByText('Active')).toBeInTheDocument();
    expect(card.getByText('Veil VPN Premium')).toBeInTheDocument();
    expect(card.getByText('On')).toBeInTheDocument();
    expect(card.getByText('Active - automatically renews each period')).toBeInTheDocument();
    expect(card.getByText('Next Billing')).toBeInTheDocument();
    expect(card.getByText('November 23, 2027')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Open VPN App' })).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Turn Off Auto-Renewal' })).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Refresh Status' })).toBeInTheDocument();
  });

  test('active with renewal cancelled: Off, "Subscription Ends", the notice and Re-enable', async () => {
    const onReEnable = vi.fn();
    const card = await renderAccount({
      subscription: subscription({ cancelAtPeriodEnd: true, plan: 'Family Plan' }),
      autoRenewal: { ...props().autoRenewal, onReEnable },
    });
    expect(card.getByText('Family Plan')).toBeInTheDocument();
    expect(card.getByText('Off')).toBeInTheDocument();
    expect(card.getByText('Cancelled - subscription ends on billing date')).toBeInTheDocument();
    expect(card.getByText('Subscription Ends')).toBeInTheDocument();
    expect(card.getByText('Auto-renewal is off')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Turn Off Auto-Renewal' })).toBeNull();
    card.getByRole('button', { name: 'Re-enable Auto-Renewal' }).click();
    expect(onReEnable).toHaveBeenCalledOnce();
  });

  test.each([
    ['inactive', 'Inactive'],
    ['past_due', 'Past Due'],
    ['cancelled', 'Cancelled'],
    ['incomplete', 'incomplete'],
  ])('status %s shows "%s" and Subscribe Now instead of the VPN button', async (status, label) => {
    const card = await renderAccount({ subscription: subscription({ status }) });
    expect(card.getByText(label)).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Subscribe Now' })).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Open VPN App' })).toBeNull();
  });

  test('no end date: no date row', async () => {
    const card = await renderAccount({ subscription: subscription({ endDate: undefined }) });
    expect(card.queryByText('Next Billing')).toBeNull();
    expect(card.queryByText('Subscription Ends')).toBeNull();
  });

  test('refreshing shows a spinner instead of the details', async () => {
    const card = await renderAccount({ subscription: subscription({}), refreshing: true });
    expect(card.getByRole('status')).toBeInTheDocument();
    expect(card.queryByText('Veil VPN Premium')).toBeNull();
  });

  test('the turn-off dialog reads "Processing..." while cancelling', async () => {
    await renderAccount({ subscription: subscription({}), autoRenewal: { ...props().autoRenewal, cancelling: true } });
    const dialog = await screen.findByRole('dialog', { name: 'Turn off auto-renewal?' });
    expect(within(dialog).getByRole('button', { name: 'Processing...' })).toBeDisabled();
  });

  test('the delete dialog lists what goes, says the subscription ends at once, and offers turning off auto-renewal', async () => {
    const onCancel = vi.fn();
    const onTurnOff = vi.fn();
    await renderAccount({
      subscription: subscription({}),
      deletion: { ...props().deletion, dialogOpen: true, onCancel },
      autoRenewal: { ...props().autoRenewal, onTurnOff },
    });
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you absolutely sure?' }));
    expect(dialog.getByText('Your account and profile information')).toBeInTheDocument();
    expect(dialog.getByText('All subscription data')).toBeInTheDocument();
    expect(dialog.getByText('Your preferences and settings')).toBeInTheDocument();
    expect(dialog.getByText('This action cannot be undone.')).toBeInTheDocument();
    expect(dialog.getByText('Your subscription ends now')).toBeInTheDocument();
    expect(
      dialog.getByText(
        'Deleting your account ends your Veil VPN Premium subscription immediately. You will not be charged again, and the unused time until November 23, 2027 is not refunded.',
      ),
    ).toBeInTheDocument();
    expect(dialog.queryByText('Cancel your subscription first to avoid future charges.')).toBeNull();
    expect(dialog.getByRole('button', { name: 'Delete Account Permanently' })).toBeEnabled();
    dialog.getByRole('button', { name: 'Turn Off Auto-Renewal instead' }).click();
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onTurnOff).toHaveBeenCalledTimes(1);
  });

  test('auto-renewal already off: the delete dialog still says it ends now, without offering to turn it off', async () => {
    await renderAccount({
      subscription: subscription({ cancelAtPeriodEnd: true }),
      deletion: { ...props().deletion, dialogOpen: true },
    });
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you absolutely sure?' }));
    expect(dialog.getByText('Your subscription ends now')).toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Turn Off Auto-Renewal instead' })).toBeNull();
  });

  test('no end date: the texts say "until the end of the billing period", never "until N/A"', async () => {
    await renderAccount({
      subscription: subscription({ cancelAtPeriodEnd: true, endDate: undefined }),
      deletion: { ...props().deletion, dialogOpen: true },
    });
    expect(screen.getByText('Your subscription stays active until the end of the billing period and will not renew.')).toBeInTheDocument();
    expect(screen.queryByText(/N\/A/)).toBeNull();
  });

  test('no active subscription: the delete dialog does not warn; deleting disables both buttons', async () => {
    await renderAccount({ subscription: null, deletion: { ...props().deletion, dialogOpen: true, deleting: true } });
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you absolutely sure?' }));
    expect(dialog.queryByText('Your subscription ends now')).toBeNull();
    expect(dialog.queryByRole('button', { name: 'Turn Off Auto-Renewal instead' })).toBeNull();
    expect(dialog.getByRole('button', { name: 'Deleting Account...' })).toBeDisabled();
    expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  });

  test('Sign In Required: its text and a Sign In button to /subscribe', async () => {
    await renderAtPath('/account', <SignInRequired />);
    expect(await screen.findByRole('heading', { name: 'Sign In Required' })).toBeInTheDocument();
    expect(screen.getByText('You need to sign in to view your account')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/subscribe');
  });
});

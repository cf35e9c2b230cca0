import { describe, expect, test, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { Subscription } from '../../contract/api';
import { AccountPage, SignInRequired, type AccountPageProps } from './account-page';
import { DevicesCard } from '../../src/screens/devices-card';
import { payByDate } from '../../src/screens/subscription-texts';
import { deviceAccess } from '../../machines/subscription-display';
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
    expect(card.getByText('Off - you will not be charged again')).toBeInTheDocument();
    expect(card.getByText('Subscription Ends')).toBeInTheDocument();
    expect(card.getByText('Veil VPN Premium stays active until the date above and will not renew.')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Turn Off Auto-Renewal' })).toBeNull();
    card.getByRole('button', { name: 'Re-enable Auto-Renewal' }).click();
    expect(onReEnable).toHaveBeenCalledOnce();
  });

  test.each([
    ['inactive', 'Inactive'],
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

  test('refreshing keeps the details (the card keeps its size) and spins in the button', async () => {
    const card = await renderAccount({ subscription: subscription({}), refreshing: true });
    expect(card.getByText('Veil VPN Premium')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Refresh Status' })).toHaveAttribute('data-loading', 'true');
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
    // Issue 45 (T18): what happens to the devices, named.
    expect(dialog.getByText('Your devices: desktop apps are signed out and WireGuard configurations stop working at once')).toBeInTheDocument();
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
    expect(screen.getByText(/the unused time until the end of the billing period is not refunded/)).toBeInTheDocument();
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

  describe('the subscription card tells one story (issue 22 item 5)', () => {
    const NOW = new Date('2026-11-25T12:00:00Z');

    test('renewal off: still Active, the end date shown once, the note and Re-enable inside the renewal box', async () => {
      const card = await renderAccount({ subscription: subscription({ cancelAtPeriodEnd: true }), now: NOW });
      expect(card.getByText('Active')).toBeInTheDocument();
      expect(screen.getAllByText(/November 23, 2027/)).toHaveLength(1);
      expect(card.queryByText('Auto-renewal is off')).toBeNull();
      expect(card.getByRole('button', { name: 'Open VPN App' })).toBeInTheDocument();
    });

    test('an ended subscription reads "Ended on <date>", with no renewal box and no "Subscription Ends"', async () => {
      const card = await renderAccount({
        subscription: subscription({ status: 'cancelled', cancelAtPeriodEnd: true, endDate: '2025-01-10T12:00:00.000Z' }),
        now: NOW,
      });
      expect(card.getByText('Ended on January 10, 2025')).toBeInTheDocument();
      expect(card.queryByText('Auto-Renewal')).toBeNull();
      expect(card.queryByText('Subscription Ends')).toBeNull();
      expect(card.queryByText('Cancelled - subscription ends on billing date')).toBeNull();
      expect(card.getByRole('link', { name: 'Subscribe Now' })).toBeInTheDocument();
    });

    test('no Devices card without a subscription', async () => {
      await renderAtPath('/account', <AccountPage {...props({ subscription: null, devices: <p>devices card</p> })} />);
      await screen.findByRole('heading', { name: 'My Account' });
      expect(screen.queryByText('devices card')).toBeNull();
    });

    test('the Devices card names Open VPN App only when the page offers it', async () => {
      const card = { devices: [], loading: false, error: null, revokingId: null, onRevoke: noop, onReload: noop, onAdd: noop, onReplaceKey: noop };
      await renderAtPath('/account', <DevicesCard {...card} openAppOffered={false} />);
      expect(await screen.findByText('No device yet.')).toBeInTheDocument();
      expect(screen.queryByText(/Open VPN App/)).toBeNull();
    });

    test('the Devices card lists WireGuard configurations with Replace key and Remove, offers Add a device, and names ChaCha20-Poly1305', async () => {
      const onAdd = vi.fn();
      const onReplaceKey = vi.fn();
      const onRevoke = vi.fn();
      const router = { id: 'wgk_1', kind: 'wireguard' as const, deviceName: 'Home router', createdAt: '2026-11-20T10:00:00Z', publicKey: 'G8arjbiZ2lErtbJZgeRirmxED+XvVUQw67DAHCq1BDM=', ipv4Address: '10.64.0.2', ipv6Address: 'fd76:6569:6c00::2' };
      const laptop = { id: 'ses_1', kind: 'desktop' as const, deviceName: 'MacBook', createdAt: '2026-11-01T10:00:00Z', lastUsedAt: '2026-11-20T00:00:00Z' };
      await renderAtPath(
        '/account',
        <DevicesCard devices={[laptop, router]} loading={false} error={null} revokingId={null} onRevoke={onRevoke} onReload={noop} onAdd={onAdd} onReplaceKey={onReplaceKey} openAppOffered />,
      );
      const card = within(await screen.findByRole('region', { name: 'Devices' }));
      expect(card.getByText(/ChaCha20-Poly1305/)).toBeInTheDocument();
      expect(card.queryByText(/AES-256/)).toBeNull();
      // Issue 45 (T19): where the app is simpler than WireGuard, the card says so.
      expect(card.getByText(/On a Mac, a Windows PC, an iPhone or an Android phone the Veil VPN app is simpler: sign in and connect\. For Linux, a router or any other device, add a WireGuard configuration\./)).toBeInTheDocument();
      expect(card.getByText(/WireGuard configuration · added/)).toBeInTheDocument();
      expect(card.getByText(/Public key G8arjbiZ2lErtbJZgeRirmxED\+XvVUQw67DAHCq1BDM=/)).toBeInTheDocument();
      const user = userEvent.setup();
      await user.click(card.getByRole('button', { name: 'Add a device' }));
      await user.click(card.getByRole('button', { name: 'Replace key for Home router' }));
      await user.click(card.getByRole('button', { name: 'Remove Home router' }));
      await user.click(card.getByRole('button', { name: 'Sign out MacBook' }));
      expect(onAdd).toHaveBeenCalledTimes(1);
      expect(onReplaceKey).toHaveBeenCalledWith(router);
      expect(onRevoke.mock.calls).toEqual([['wgk_1'], ['ses_1']]);
      expect(card.queryByRole('button', { name: 'Replace key for MacBook' })).toBeNull();
    });

    // Issue 45 item 2: devices tell the truth about access.
    test('without access, "Add a device" becomes "Subscribe to connect devices" and each device says it is not connecting and why', async () => {
      const router = { id: 'wgk_1', kind: 'wireguard' as const, deviceName: 'Home router', createdAt: '2026-11-20T10:00:00Z' };
      const laptop = { id: 'ses_1', kind: 'desktop' as const, deviceName: 'MacBook', createdAt: '2026-11-01T10:00:00Z' };
      const card = { devices: [router, laptop], loading: false, error: null, revokingId: null, onRevoke: noop, onReload: noop, onAdd: noop, onReplaceKey: noop, openAppOffered: false };
      const ended = await renderAtPath('/account', <DevicesCard {...card} access="planEnded" />);
      let region = within(await screen.findByRole('region', { name: 'Devices' }));
      expect(region.queryByRole('button', { name: 'Add a device' })).toBeNull();
      expect(region.getByRole('link', { name: 'Subscribe to connect devices' })).toHaveAttribute('href', '/subscribe');
      expect(region.getAllByText('Not connecting: plan ended')).toHaveLength(2);
      expect(region.queryByRole('button', { name: 'Replace key for Home router' })).toBeNull();
      expect(region.getByRole('button', { name: 'Remove Home router' })).toBeInTheDocument();
      ended.unmount();

      const paused = await renderAtPath('/account', <DevicesCard {...card} access="pausedUntilPayment" />);
      region = within(await screen.findByRole('region', { name: 'Devices' }));
      expect(region.getAllByText('Not connecting: paused until payment')).toHaveLength(2);
      expect(region.queryByRole('button', { name: 'Add a device' })).toBeNull();
      paused.unmount();

      // Never subscribed (a desktop app signed in without a plan): no plan has ended, so none is said to have.
      const none = await renderAtPath('/account', <DevicesCard {...card} access="noPlan" />);
      region = within(await screen.findByRole('region', { name: 'Devices' }));
      expect(region.getByRole('link', { name: 'Subscribe to connect devices' })).toHaveAttribute('href', '/subscribe');
      expect(region.getAllByText('Not connecting: no plan')).toHaveLength(2);
      expect(region.queryByText(/plan has ended/)).toBeNull();
      none.unmount();

      await renderAtPath('/account', <DevicesCard {...card} access="connects" />);
      region = within(await screen.findByRole('region', { name: 'Devices' }));
      expect(region.getByRole('button', { name: 'Add a device' })).toBeInTheDocument();
      expect(region.queryByText(/Not connecting/)).toBeNull();
    });

    // Issue 45 item 6: Remove asks first, and says what happens.
    test('removing a WireGuard device asks first: its configuration stops working at once; Cancel or Remove device', async () => {
      const onConfirmRemove = vi.fn();
      const onCancelRemove = vi.fn();
      const router = { id: 'wgk_1', kind: 'wireguard' as const, deviceName: 'Home router', createdAt: '2026-11-20T10:00:00Z' };
      await renderAtPath(
        '/account',
        <DevicesCard devices={[router]} loading={false} error={null} revokingId={null} onRevoke={noop} onReload={noop} onAdd={noop} onReplaceKey={noop} openAppOffered confirmingId="wgk_1" onConfirmRemove={onConfirmRemove} onCancelRemove={onCancelRemove} />,
      );
      const dialog = within(await screen.findByRole('dialog', { name: 'Remove Home router?' }));
      expect(dialog.getByText(/its configuration stops working at once/)).toBeInTheDocument();
      const user = userEvent.setup();
      await user.click(dialog.getByRole('button', { name: 'Cancel' }));
      await user.click(dialog.getByRole('button', { name: 'Remove device' }));
      expect(onCancelRemove).toHaveBeenCalledTimes(1);
      expect(onConfirmRemove).toHaveBeenCalledTimes(1);
    });

    test('Refresh Status keeps the card, spins in the button, then says "Status updated"', async () => {
      let finish = noop;
      function Harness() {
        const [refreshing, setRefreshing] = useState(false);
        finish = () => setRefreshing(false);
        return <AccountPage {...props({ subscription: subscription({}), refreshing, onRefresh: () => setRefreshing(true) })} />;
      }
      await renderAtPath('/account', <Harness />);
      const card = within(await screen.findByRole('region', { name: 'Subscription Status' }));
      expect(card.queryByText('Status updated')).toBeNull();
      await userEvent.setup().click(card.getByRole('button', { name: 'Refresh Status' }));
      expect(card.getByRole('button', { name: 'Refresh Status' })).toHaveAttribute('data-loading', 'true');
      expect(card.getByText('Veil VPN Premium')).toBeInTheDocument();
      act(() => finish());
      expect(card.getByText('Status updated')).toHaveAttribute('role', 'status');
    });

    test('the 24-hour rule informs beside renewal, not as a warning in the turn-off dialog', async () => {
      const card = await renderAccount({
        subscription: subscription({}),
        autoRenewal: { ...props().autoRenewal, dialogOpen: true },
      });
      expect(card.getByText('To stop the next charge, turn it off at least 24 hours before the billing date.')).toBeInTheDocument();
      const dialog = within(await screen.findByRole('dialog', { name: 'Turn off auto-renewal?' }));
      expect(dialog.queryByText(/24 hours/)).toBeNull();
    });
  });

  test('dialog buttons: the confirming action last; three buttons always stack (issue 22 item 8)', async () => {
    await renderAccount({ subscription: subscription({}), deletion: { ...props().deletion, dialogOpen: true } });
    const dialog = await screen.findByRole('dialog', { name: 'Are you absolutely sure?' });
    const buttons = within(dialog).getAllByRole('button').filter((button) => button.textContent);
    expect(buttons.map((button) => button.textContent)).toEqual(['Cancel', 'Turn Off Auto-Renewal instead', 'Delete Account Permanently']);
    expect(buttons[0]!.parentElement).toHaveAttribute('data-stacked', 'true');
  });
});

describe('the account page tells the truth about money (issue 34)', () => {
  const NOW = new Date('2026-11-26T12:00:00Z');

  test('a refunded subscription (cancelled, the old end date and renewal flag left) says it ended: no next billing, no renewal box', async () => {
    const card = await renderAccount({
      subscription: subscription({ status: 'cancelled', cancelAtPeriodEnd: false, endDate: '2027-11-26T10:00:00.000Z' }),
      now: NOW,
    });
    expect(card.getByText('Cancelled')).toBeInTheDocument();
    expect(card.getByText('Ended')).toBeInTheDocument();
    expect(card.queryByText('Next Billing')).toBeNull();
    expect(card.queryByText(/November 26, 2027/)).toBeNull();
    expect(card.queryByText('Auto-Renewal')).toBeNull();
    expect(card.queryByText('Active - automatically renews each period')).toBeNull();
    expect(card.getByRole('link', { name: 'Subscribe Now' })).toBeInTheDocument();
  });

  test('past due: the way to pay first, the day by which to pay, no "Ended on" and no second purchase', async () => {
    const onUpdatePaymentMethod = vi.fn();
    await renderAtPath(
      '/account',
      <AccountPage
        {...props({ subscription: subscription({ status: 'past_due', endDate: '2026-11-20T10:00:00.000Z' }), now: NOW })}
        onUpdatePaymentMethod={onUpdatePaymentMethod}
      />,
    );
    const card = within(await screen.findByRole('region', { name: 'Subscription Status' }));
    expect(card.getByText('Past Due')).toBeInTheDocument();
    expect(card.getByText('Your renewal payment failed')).toBeInTheDocument();
    expect(
      card.getByText(
        'We could not charge your card for your yearly renewal on November 20, 2026. Your VPN keeps working while we try the payment again. Update your payment method by December 20, 2026 to keep your plan; it renews from its original date. After that day your subscription ends.',
      ),
    ).toBeInTheDocument();
    expect(card.queryByText(/Ended/)).toBeNull();
    expect(card.queryByRole('link', { name: 'Subscribe Now' })).toBeNull();
    const buttons = card.getAllByRole('button').map((button) => button.textContent);
    expect(buttons[0]).toBe('Update payment method');
    card.getByRole('button', { name: 'Update payment method' }).click();
    expect(onUpdatePaymentMethod).toHaveBeenCalledOnce();
  });

  // Issue 46 item 2: the API tells `unpaid` (no access) from `past_due` (access while the card is retried).
  test('past due keeps the devices connecting; unpaid (the retries ended) says the VPN is paused until payment, on the card and on each device', async () => {
    const router = { id: 'wgk_1', kind: 'wireguard' as const, deviceName: 'Home router', createdAt: '2026-11-20T10:00:00Z' };
    const devicesFor = (shown: Subscription) => (
      <DevicesCard devices={[router]} loading={false} error={null} revokingId={null} onRevoke={noop} onReload={noop} onAdd={noop} onReplaceKey={noop} openAppOffered={false} access={deviceAccess(shown, payByDate(shown), NOW)} />
    );
    const pastDue = subscription({ status: 'past_due', endDate: '2026-11-20T10:00:00.000Z' });
    const retried = await renderAtPath('/account', <AccountPage {...props({ subscription: pastDue, devices: devicesFor(pastDue), now: NOW })} />);
    let card = within(await screen.findByRole('region', { name: 'Subscription Status' }));
    expect(card.getByText(/Your VPN keeps working while we try the payment again\./)).toBeInTheDocument();
    let devices = within(screen.getByRole('region', { name: 'Devices' }));
    expect(devices.getByRole('button', { name: 'Add a device' })).toBeInTheDocument();
    expect(devices.queryByText(/Not connecting/)).toBeNull();
    retried.unmount();

    const unpaid = subscription({ status: 'past_due', endDate: '2026-11-20T10:00:00.000Z', unpaid: true });
    await renderAtPath('/account', <AccountPage {...props({ subscription: unpaid, devices: devicesFor(unpaid), now: NOW })} />);
    card = within(await screen.findByRole('region', { name: 'Subscription Status' }));
    expect(card.getByText('Past Due')).toBeInTheDocument();
    expect(
      card.getByText(
        'We could not charge your card for your yearly renewal on November 20, 2026. We have stopped trying the payment, so your VPN is paused until payment. Update your payment method to pay: your devices connect again once it is paid, and your plan renews from its original date.',
      ),
    ).toBeInTheDocument();
    expect(card.queryByText(/keeps working/)).toBeNull();
    expect(card.getByRole('button', { name: 'Update payment method' })).toBeInTheDocument();
    devices = within(screen.getByRole('region', { name: 'Devices' }));
    expect(devices.getByText('Not connecting: paused until payment')).toBeInTheDocument();
    expect(devices.queryByRole('button', { name: 'Add a device' })).toBeNull();
    expect(devices.queryByRole('button', { name: 'Replace key for Home router' })).toBeNull();
  });

  test('renewal off under ACTIVE: "Off - you will not be charged again", never "Cancelled - subscription ends on billing date"', async () => {
    const card = await renderAccount({ subscription: subscription({ cancelAtPeriodEnd: true }), now: NOW });
    expect(card.getByText('Active')).toBeInTheDocument();
    expect(card.getByText('Off - you will not be charged again')).toBeInTheDocument();
    expect(card.getByText('Veil VPN Premium stays active until the date above and will not renew.')).toBeInTheDocument();
    expect(card.queryByText(/Cancelled/)).toBeNull();
  });

  test('inside the money-back window the delete dialog offers Cancel and Refund first and never says "is not refunded"', async () => {
    const onRefundInstead = vi.fn();
    const onCancel = vi.fn();
    await renderAccount({
      subscription: subscription({}),
      now: NOW,
      refundableUntil: '2026-12-20T10:00:00.000Z',
      onRefundInstead,
      deletion: { ...props().deletion, dialogOpen: true, onCancel },
    });
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you absolutely sure?' }));
    expect(dialog.getByText('You can still get your money back')).toBeInTheDocument();
    expect(
      dialog.getByText(
        'Your 30-day money-back guarantee runs until December 20, 2026. Cancel and refund first to get your first payment back in full; deleting your account ends your Veil VPN Premium subscription immediately.',
      ),
    ).toBeInTheDocument();
    expect(dialog.queryByText(/is not refunded/)).toBeNull();
    const buttons = dialog.getAllByRole('button').filter((button) => button.textContent).map((button) => button.textContent);
    expect(buttons).toEqual(['Cancel', 'Cancel and Refund instead', 'Delete Account Permanently']);
    dialog.getByRole('button', { name: 'Cancel and Refund instead' }).click();
    expect(onRefundInstead).toHaveBeenCalledOnce();
  });

  test('after the money-back window the delete dialog says the unused time is not refunded, as before', async () => {
    await renderAccount({
      subscription: subscription({}),
      now: NOW,
      refundableUntil: '2026-11-01T10:00:00.000Z',
      onRefundInstead: noop,
      deletion: { ...props().deletion, dialogOpen: true },
    });
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you absolutely sure?' }));
    expect(dialog.getByText(/is not refunded/)).toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Cancel and Refund instead' })).toBeNull();
  });
});

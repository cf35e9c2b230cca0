/**
 * The /staff console's screens (issue 30, item 7): they follow the feature-to-role table; every action asks for
 * a reason; the plan, the money-back window and the customer's activity as issue 45 T12 asks.
 */
import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StaffCustomer } from '../../contract/api';
import type { StaffRole } from '../../contract/staff';
import { StaffSignIn } from '../../src/screens/staff-console';
import { StaffCustomerPage, StaffSection, type StaffCustomerPageProps } from '../../src/screens/staff-customer';
import { StaffActionDialog, type StaffActionDialogProps } from '../../src/screens/staff-danger-zone';
import { ServerStatusBoard } from '../../src/screens/server-status-board';
import { renderWithMantine } from './render';

const customer: StaffCustomer = {
  profile: { id: 'usr_1', email: 'ada@example.com', name: 'Ada', provider: 'google', createdAt: '2026-11-01T00:00:00.000Z', disabled: false, paymentCustomerId: null },
  subscription: { status: 'active', cancelAtPeriodEnd: false },
  billing: [],
  devices: [
    { id: 'ses_1', name: 'Work laptop', kind: 'desktop', createdAt: '2026-11-02T12:00:00.000Z', lastUsedOn: '2026-11-20' },
    { id: 'wgk_1', name: 'Phone', kind: 'wireguard', createdAt: '2026-11-03T12:00:00.000Z', lastUsedOn: null },
  ],
  refundableUntil: '2026-12-01T00:00:00.000Z',
  emails: [{ kind: 'receipt', date: '2026-11-01' }],
  actions: [],
  access: 'connects',
  activity: [{ kind: 'staff_action', by: 'support', date: '2026-11-20', detail: { action: 'resend_receipt' } }],
};

function render(role: StaffRole, overrides: Partial<StaffCustomerPageProps> = {}) {
  const props: StaffCustomerPageProps = { role, customer, onClose: vi.fn(), onAction: vi.fn(), ...overrides };
  renderWithMantine(<StaffCustomerPage {...props} />);
  return props;
}

function renderDialog(overrides: Partial<StaffActionDialogProps>) {
  const props: StaffActionDialogProps = { action: 'refund', deviceName: null, reason: '', error: null, calling: false, onReason: vi.fn(), onConfirm: vi.fn(), onCancel: vi.fn(), ...overrides };
  renderWithMantine(<StaffActionDialog {...props} />);
  return props;
}

const planOf = () => within(screen.getByRole('region', { name: 'Subscription' })).getAllByRole('paragraph').map((line) => line.textContent);

describe('staff console', () => {
  test('support sees the danger zone without refund, disable or delete; revoke is offered per device', async () => {
    const props = render('support');
    const danger = within(screen.getByRole('region', { name: 'Danger zone' }));
    expect(danger.getAllByRole('button').map((button) => button.textContent)).toEqual(['Resend latest receipt']);
    expect(danger.getByText('Needs the admin role: Refund, Disable account, Enable account, Delete account.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke Work laptop' }));
    expect(props.onAction).toHaveBeenCalledWith('revoke_device', 'ses_1');
  });

  test("each device shows its kind; a WireGuard key has no last-used day and can be revoked too", async () => {
    const props = render('support');
    const devices = within(screen.getByRole('region', { name: 'Devices' }));
    expect(devices.getAllByRole('listitem').map((item) => item.querySelector('p')?.textContent)).toEqual([
      'Work laptop (Desktop app), added November 2, 2026, last used November 20, 2026',
      'Phone (WireGuard configuration), added November 3, 2026',
    ]);
    await userEvent.click(devices.getByRole('button', { name: 'Revoke Phone' }));
    expect(props.onAction).toHaveBeenCalledWith('revoke_device', 'wgk_1');
  });

  test('admin sees every action', () => {
    render('admin');
    const danger = within(screen.getByRole('region', { name: 'Danger zone' }));
    expect(danger.getAllByRole('button').map((button) => button.textContent)).toEqual(['Resend latest receipt', 'Refund', 'Disable account', 'Delete account']);
  });

  test('the confirmation cannot be confirmed with a reason under 5 characters', () => {
    renderDialog({ reason: 'abc' });
    expect(screen.getByRole('button', { name: 'Confirm: Refund' })).toBeDisabled();
  });

  test('with a reason it confirms', async () => {
    const props = renderDialog({ reason: 'Charged twice' });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm: Refund' }));
    expect(props.onConfirm).toHaveBeenCalledOnce();
  });

  test('a disabled account offers "Enable account" in place of "Disable account"', () => {
    render('admin', { customer: { ...customer, profile: { ...customer.profile, disabled: true } } });
    const danger = within(screen.getByRole('region', { name: 'Danger zone' }));
    expect(danger.getAllByRole('button').map((button) => button.textContent)).toEqual(['Resend latest receipt', 'Refund', 'Enable account', 'Delete account']);
  });

  test('issue 45 T12: a running plan shows its auto-renewal and the money-back window', () => {
    render('support', { customer: { ...customer, subscription: { status: 'active', cancelAtPeriodEnd: true, endDate: '2026-12-01T12:00:00.000Z' } } });
    expect(planOf()).toEqual(['active, period ends December 1, 2026', 'Auto-renewal: off (the plan ends December 1, 2026)', 'Money-back window: open until December 1, 2026']);
  });

  test('issue 45 T12: a refunded plan reads "cancelled (refunded <date>)", the window closed', () => {
    const refunded: StaffCustomer = {
      ...customer,
      subscription: { status: 'cancelled', cancelAtPeriodEnd: false, endDate: '2026-12-01T12:00:00.000Z' },
      refundableUntil: null,
      billing: [
        { id: 'refund_sub_1', kind: 'refund', amount: 10000, currency: 'usd', date: '2026-11-05T12:00:00.000Z', description: 'Refund', receiptUrl: null, refundState: 'made' },
        { id: 'ch_1', kind: 'charge', amount: 10000, currency: 'usd', date: '2026-11-01T12:00:00.000Z', description: 'Veil VPN, 1 year', receiptUrl: null },
      ],
    };
    render('support', { customer: refunded });
    expect(planOf()).toEqual(['cancelled (refunded November 5, 2026)', 'Money-back window: closed']);
  });

  test('issue 45 T12: a past-due plan shows the day it must be paid by', () => {
    render('support', { customer: { ...customer, refundableUntil: null, subscription: { status: 'past_due', cancelAtPeriodEnd: false, endDate: '2026-12-01T12:00:00.000Z' } } });
    expect(planOf()).toContain('Pay by: December 31, 2026 (the renewal failed; the plan ends unpaid after this day)');
  });

  test("issue 45 T12: the customer's own activity, as their account page words it", () => {
    render('support');
    const activity = within(screen.getByRole('region', { name: 'Account activity (as the customer sees it)' }));
    expect(activity.getByRole('listitem').textContent).toBe('November 20, 2026: Resent your receipt (Veil support)');
  });

  test('issue 45 T12: a sign-in to renew is asked for, and /signin brings the visitor back', () => {
    renderWithMantine(<StaffSignIn />);
    expect(screen.getByRole('heading', { name: 'Sign in again' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In Again' })).toHaveAttribute('href', '/signin?redirect=%2Fstaff');
  });

  test('with no customer open: the servers table the status page shows, under its own heading (issue 48)', () => {
    const status = {
      updatedAt: '2026-11-28T10:00:00.000Z',
      servers: [
        { id: 'us-nyc-1', country: 'US', countryName: 'United States', city: 'New York', online: true, maintenance: false, load: 42, lastReportAt: '2026-11-28T09:59:50.000Z', uptime30d: 100, uptime90d: 99.99, days: Array.from({ length: 90 }, () => 1), confirmedVersion: 41, listVersion: 41, agentVersion: '1.2.0' },
        { id: 'ng-lagos-1', country: 'NG', countryName: 'Nigeria', city: 'Lagos', online: true, maintenance: true, load: 0, lastReportAt: '2026-11-28T09:59:50.000Z', uptime30d: 100, uptime90d: 100, days: Array.from({ length: 90 }, () => 1), confirmedVersion: 38, listVersion: 41, agentVersion: null },
      ],
    };
    renderWithMantine(
      <StaffSection id="staff-servers" title="VPN servers">
        <ServerStatusBoard status={status} receivedAt={Date.parse(status.updatedAt)} failed={false} now={Date.parse(status.updatedAt) + 5_000} headingOrder={3} />
      </StaffSection>,
    );
    const region = within(screen.getByRole('region', { name: 'VPN servers' }));
    expect(region.getByText('1 of 2 servers online, 1 in maintenance')).toBeInTheDocument();
    expect(region.getByText('Updated 5 seconds ago')).toBeInTheDocument();
    const newYork = within(region.getByRole('heading', { level: 3, name: 'New York, United States' }).closest('li')!);
    expect(newYork.getByText('Online')).toBeInTheDocument();
    expect(newYork.getByText('Load 42%')).toBeInTheDocument();
    expect(within(region.getByRole('heading', { level: 3, name: 'Lagos, Nigeria' }).closest('li')!).getByText('Maintenance')).toBeInTheDocument();
    // Issue 47 item 2: the peer-list version each server applied, and how far one lags.
    expect(newYork.getByText('Peer list: version 41 of 41 applied · agent 1.2.0')).toBeInTheDocument();
    expect(within(region.getByRole('heading', { level: 3, name: 'Lagos, Nigeria' }).closest('li')!).getByText('Peer list: version 38 of 41 applied (3 behind)')).toBeInTheDocument();
  });
});

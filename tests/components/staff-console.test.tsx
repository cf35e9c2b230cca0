/** The /staff console's screen (issue 30, item 7): it follows the feature-to-role table; every action asks for a reason. */
import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StaffCustomer } from '../../contract/api';
import type { StaffRole } from '../../contract/staff';
import { StaffConsole, type StaffConsoleProps } from '../../src/screens/staff-console';
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
  emails: [{ kind: 'receipt', date: '2026-11-01' }],
  actions: [],
  access: 'connects',
};

function render(role: StaffRole, overrides: Partial<StaffConsoleProps> = {}) {
  const props: StaffConsoleProps = {
    role,
    busy: false,
    error: null,
    query: 'ada@',
    customers: [],
    customer,
    onSearch: vi.fn(),
    onOpen: vi.fn(),
    onClose: vi.fn(),
    onAction: vi.fn(),
    dialog: null,
    ...overrides,
  };
  renderWithMantine(<StaffConsole {...props} />);
  return props;
}

describe('staff console', () => {
  test('support sees the danger zone without refund, disable or delete; revoke is offered per device', async () => {
    const props = render('support');
    const danger = within(screen.getByRole('region', { name: 'Danger zone' }));
    expect(danger.getAllByRole('button').map((button) => button.textContent)).toEqual(['Resend latest receipt']);
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

  const dialog = { action: 'refund' as const, deviceName: null, error: null, calling: false, onReason: vi.fn(), onConfirm: vi.fn(), onCancel: vi.fn() };

  test('the confirmation cannot be confirmed with a reason under 5 characters', () => {
    render('admin', { dialog: { ...dialog, reason: 'abc' } });
    expect(screen.getByRole('button', { name: 'Confirm: Refund' })).toBeDisabled();
  });

  test('with a reason it confirms', async () => {
    const onConfirm = vi.fn();
    render('admin', { dialog: { ...dialog, onConfirm, reason: 'Charged twice' } });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm: Refund' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  test('with no customer open: the servers table the status page shows, under its own heading (issue 48)', () => {
    const status = {
      updatedAt: '2026-11-28T10:00:00.000Z',
      servers: [
        { id: 'us-nyc-1', country: 'US', countryName: 'United States', city: 'New York', online: true, maintenance: false, load: 42, lastReportAt: '2026-11-28T09:59:50.000Z', uptime30d: 100, uptime90d: 99.99, days: Array.from({ length: 90 }, () => 1), confirmedVersion: 41, listVersion: 41, agentVersion: '1.2.0' },
        { id: 'ng-lagos-1', country: 'NG', countryName: 'Nigeria', city: 'Lagos', online: true, maintenance: true, load: 0, lastReportAt: '2026-11-28T09:59:50.000Z', uptime30d: 100, uptime90d: 100, days: Array.from({ length: 90 }, () => 1), confirmedVersion: 38, listVersion: 41, agentVersion: null },
      ],
    };
    const servers = <ServerStatusBoard status={status} receivedAt={Date.parse(status.updatedAt)} failed={false} now={Date.parse(status.updatedAt) + 5_000} headingOrder={3} />;
    render('support', { customer: null, servers });
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

  test('with a customer open the servers table gives way to the customer', () => {
    render('support', { servers: <p>servers</p> });
    expect(screen.queryByRole('region', { name: 'VPN servers' })).toBeNull();
  });
});

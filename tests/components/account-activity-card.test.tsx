/** The account page's Account activity card (issue 30, item 6): days only, staff as "Veil support". */
import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityItem } from '../../contract/account-activity';
import { AccountActivityCard } from '../../src/screens/account-activity-card';
import { renderWithMantine } from './render';

const noop = () => {};
function card(items: ActivityItem[], overrides: { loading?: boolean; error?: string | null; onReload?: () => void } = {}) {
  renderWithMantine(<AccountActivityCard items={items} loading={false} error={null} onReload={noop} {...overrides} />);
  return within(screen.getByRole('region', { name: 'Account activity' }));
}

describe('Account activity card', () => {
  test('each entry says what happened, who (you or Veil support, never a name) and the day', () => {
    const shown = card([
      { kind: 'staff_action', by: 'support', date: '2026-11-26', detail: { action: 'refund', amount: 10000, currency: 'usd' } },
      { kind: 'staff_action', by: 'support', date: '2026-11-26', detail: { action: 'revoke_device', deviceName: 'Work laptop' } },
      { kind: 'auto_renewal_off', by: 'customer', date: '2026-11-25', detail: {} },
      { kind: 'signed_in_new_device', by: 'customer', date: '2026-11-01', detail: { deviceName: 'Work laptop' } },
    ]);
    const rows = shown.getAllByRole('listitem').map((row) => row.textContent);
    expect(rows).toEqual([
      'Refunded a payment of $100.00Veil supportNovember 26, 2026',
      'Signed out a device: Work laptopVeil supportNovember 26, 2026',
      'Auto-renewal turned offYouNovember 25, 2026',
      'Signed in on a new device: Work laptopYouNovember 1, 2026',
    ]);
  });

  test('a WireGuard device removed and a key replaced say so (issue 45 item 6)', () => {
    const shown = card([
      { kind: 'device_removed', by: 'customer', date: '2026-11-27', detail: { deviceName: 'Home router' } },
      { kind: 'key_replaced', by: 'customer', date: '2026-11-26', detail: { deviceName: 'Pixel phone' } },
    ]);
    expect(shown.getAllByRole('listitem').map((row) => row.textContent)).toEqual([
      'Device removed: Home routerYouNovember 27, 2026',
      'Key replaced: Pixel phoneYouNovember 26, 2026',
    ]);
  });

  test('empty', () => {
    expect(card([]).getByText(/Nothing yet/)).toBeInTheDocument();
  });

  test('loading', () => {
    expect(card([], { loading: true }).getByRole('status')).toHaveTextContent('Loading your account activity…');
  });

  test('a failure with Try again', async () => {
    const onReload = vi.fn();
    const failed = card([], { error: 'Could not load your account activity', onReload });
    expect(failed.getByText('Could not load your account activity')).toBeInTheDocument();
    await userEvent.click(failed.getByRole('button', { name: 'Try again' }));
    expect(onReload).toHaveBeenCalledOnce();
  });
});

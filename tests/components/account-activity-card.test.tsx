/** The account page's Account activity card (issue 30, item 6): days only, staff as "Veil support". */
import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActivityItem } from '../../contract/account-activity';
import { AccountActivityCard } from '../../src/screens/account-activity-card';
import { renderWithMantine } from './render';

const noop = () => {};
type Overrides = Partial<{ loading: boolean; error: string | null; onReload: () => void; hasMore: boolean; loadingMore: boolean; moreError: string | null; onShowMore: () => void }>;
function card(items: ActivityItem[], overrides: Overrides = {}) {
  renderWithMantine(
    <AccountActivityCard items={items} loading={false} error={null} onReload={noop} hasMore={false} loadingMore={false} moreError={null} onShowMore={noop} {...overrides} />,
  );
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

  test('older entries behind "Show more" (issue 45, T25), which says why when it fails and keeps what is shown', async () => {
    const onShowMore = vi.fn();
    const entry: ActivityItem = { kind: 'auto_renewal_off', by: 'customer', date: '2026-11-25', detail: {} };
    const more = card([entry], { hasMore: true, onShowMore, moreError: 'Could not load more of your account activity' });
    await userEvent.click(more.getByRole('button', { name: 'Show more' }));
    expect(onShowMore).toHaveBeenCalledOnce();
    expect(more.getByRole('alert')).toHaveTextContent('Could not load more of your account activity');
    expect(more.getAllByRole('listitem')).toHaveLength(1);
  });

  test('no "Show more" once every entry is shown', () => {
    expect(card([{ kind: 'auto_renewal_off', by: 'customer', date: '2026-11-25', detail: {} }]).queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});

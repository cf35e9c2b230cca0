/** The account page's billing pieces (issue 20): the Billing history card and the resume and refund dialogs. */
import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { BillingItem } from '../../contract/api';
import { RefundDialog, ResumeAutoRenewalDialog } from '../../src/screens/billing-dialogs';
import { BillingHistoryCard, type BillingHistoryCardProps } from '../../src/screens/billing-history-card';
import { renderWithMantine } from './render';

const noop = () => {};
const charge: BillingItem = {
  id: 'in_local_1',
  kind: 'charge',
  amount: 10000,
  currency: 'usd',
  date: '2026-11-23T10:00:00.000Z',
  description: 'Veil VPN Premium, 1 year',
  receiptUrl: 'http://veil.test/api/billing/receipts/in_local_1',
};
const refund: BillingItem = { ...charge, id: 'refund_sub_1', kind: 'refund', date: '2026-11-25T10:00:00.000Z', description: 'Refund', receiptUrl: null };

function card(overrides: Partial<BillingHistoryCardProps>) {
  renderWithMantine(
    <BillingHistoryCard items={[]} loading={false} error={null} onReload={noop} refundableUntil={null} onRefund={noop} {...overrides} />,
  );
  return within(screen.getByRole('region', { name: 'Billing history' }));
}

describe('Billing history card', () => {
  test('lists charges and refunds with amounts, dates and the receipt link', () => {
    const shown = card({ items: [refund, charge] });
    const rows = shown.getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Refund')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('−$100.00')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Veil VPN Premium, 1 year')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('$100.00')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/November 23, 2026/)).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('link', { name: 'Receipt' })).toHaveAttribute('href', charge.receiptUrl);
    expect(shown.queryByRole('button', { name: 'Cancel and refund' })).toBeNull();
  });

  test('nothing paid yet', () => {
    expect(card({}).getByText('No payments yet.')).toBeInTheDocument();
  });

  test('a failure offers Try again', () => {
    const onReload = vi.fn();
    card({ error: 'Could not load your billing history', onReload }).getByRole('button', { name: 'Try again' }).click();
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  test('each refund says truthfully where it is: in progress, made, or failed with support to contact the customer (issue 34)', () => {
    const owed = { ...refund, id: 'refund_owed', description: 'Refund in progress', refundState: 'owed' as const };
    const failed = { ...refund, id: 'refund_failed', description: 'Refund failed: our support team will contact you', refundState: 'failed' as const };
    const rows = card({ items: [owed, failed, refund] }).getAllByRole('listitem');
    expect(within(rows[0]!).getByText('Refund in progress')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Refund failed: our support team will contact you')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Refund')).toBeInTheDocument();
  });

  test('inside the money-back window it offers Cancel and refund with the last day', () => {
    const onRefund = vi.fn();
    const shown = card({ items: [charge], refundableUntil: '2026-12-23T10:00:00.000Z', onRefund });
    expect(shown.getByText(/until December 23, 2026 you can cancel and get your first payment back in full/)).toBeInTheDocument();
    shown.getByRole('button', { name: 'Cancel and refund' }).click();
    expect(onRefund).toHaveBeenCalledTimes(1);
  });
});

describe('billing dialogs', () => {
  test('the refund dialog says access ends now and the money returns to your card within 5–7 business days', async () => {
    const onConfirm = vi.fn();
    renderWithMantine(<RefundDialog opened busy={false} onConfirm={onConfirm} onDismiss={noop} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel and get a refund?' }));
    expect(dialog.getByText(/Your subscription ends now and your VPN access ends with it/)).toBeInTheDocument();
    expect(dialog.getByText(/the money returns to your card within 5–7 business days/)).toBeInTheDocument();
    dialog.getByRole('button', { name: 'Cancel and Refund' }).click();
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  test('the re-enable dialog says when it renews and for how much', async () => {
    renderWithMantine(<ResumeAutoRenewalDialog opened busy={false} endDate="2027-11-23T10:00:00.000Z" onConfirm={noop} onDismiss={noop} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Turn auto-renewal back on?' }));
    expect(dialog.getByText(/stays active until November 23, 2027 and then renews automatically for another year at \$100/)).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Turn On Auto-Renewal' })).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Keep It Off' })).toBeInTheDocument();
  });

  test('while the call runs the buttons say Processing... and are disabled', async () => {
    renderWithMantine(<RefundDialog opened={false} busy onConfirm={noop} onDismiss={noop} />);
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByRole('button', { name: 'Processing...' })).toBeDisabled();
  });
});

describe('past due notice', () => {
  test('says the renewal payment failed and offers Update payment method', async () => {
    const { PastDueNotice } = await import('../../src/screens/past-due-notice');
    const onUpdate = vi.fn();
    renderWithMantine(<PastDueNotice opening={false} onUpdatePaymentMethod={onUpdate} />);
    const notice = within(screen.getByRole('alert'));
    expect(notice.getByText('Your renewal payment failed')).toBeInTheDocument();
    notice.getByRole('button', { name: 'Update payment method' }).click();
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });
});

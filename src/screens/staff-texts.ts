/**
 * What the staff console says of actions and of a customer's plan (issue 30 item 7; issue 45 T12). The
 * actions themselves, who may use them and what each acts on are contract/staff.ts's: here only their words.
 */
import type { StaffCustomer } from '../../contract/api';
import { MONEY_BACK_DAYS } from '../../contract/plans';
import type { StaffActionName } from '../../contract/staff';
import { formatLongDate, payByDate } from './subscription-texts';

export const ACTION_LABELS: Record<StaffActionName, string> = {
  resend_receipt: 'Resend latest receipt',
  revoke_device: 'Revoke device',
  refund: 'Refund',
  disable: 'Disable account',
  enable: 'Enable account',
  delete: 'Delete account',
};

export const ACTION_WARNINGS: Record<StaffActionName, string> = {
  resend_receipt: 'The customer gets their latest receipt again by e-mail.',
  revoke_device: 'The device is signed out at once.',
  refund: `The subscription ends now and its payment is refunded (inside ${MONEY_BACK_DAYS} days: the first payment; after: the latest one).`,
  disable: 'The customer is signed out everywhere and cannot sign in until the account is enabled.',
  enable: 'The customer can sign in again. Ended sessions stay ended.',
  delete: 'The account and everything in it are deleted, and the subscription ends at once. This cannot be undone.',
};

/** A device's kind as the customer's own Devices card names it. */
export const DEVICE_KINDS: Record<StaffCustomer['devices'][number]['kind'], string> = {
  desktop: 'Desktop app',
  wireguard: 'WireGuard configuration',
};

/** A day as the API keeps it (YYYY-MM-DD, UTC), in en-US long form. */
export const dayText = (day: string) => formatLongDate(`${day}T00:00:00Z`, 'UTC');

/**
 * The plan's lines: its status ("cancelled (refunded <date>)" when a refund ended it), then auto-renewal and
 * the pay-by date while it runs, then the money-back window.
 */
export function planLines({ subscription, billing, refundableUntil }: Pick<StaffCustomer, 'subscription' | 'billing' | 'refundableUntil'>): string[] {
  const window = refundableUntil ? `Money-back window: open until ${formatLongDate(refundableUntil)}` : 'Money-back window: closed';
  if (!subscription) return ['No subscription.', window];
  const refund = billing.find((item) => item.kind === 'refund');
  const running = subscription.status === 'active' || subscription.status === 'past_due';
  const end = subscription.endDate ? formatLongDate(subscription.endDate) : null;
  const lines = [
    subscription.status === 'cancelled' && refund
      ? `cancelled (refunded ${formatLongDate(refund.date)})`
      : `${subscription.status}${end ? `, period ${running ? 'ends' : 'ended'} ${end}` : ''}`,
  ];
  if (running) lines.push(subscription.cancelAtPeriodEnd ? `Auto-renewal: off${end ? ` (the plan ends ${end})` : ''}` : 'Auto-renewal: on');
  const payBy = subscription.status === 'past_due' ? payByDate(subscription) : null;
  if (payBy) lines.push(`Pay by: ${formatLongDate(payBy)} (the renewal failed; the plan ends unpaid after this day)`);
  lines.push(window);
  return lines;
}

/**
 * Subscription helpers for display (spec §4 "Subscription status display", §8 dates). Pure functions.
 */
import type { Subscription } from '../contract/api';

/** `active` is the only status that grants access (spec §3). */
export function isActive(subscription: Pick<Subscription, 'status'> | null | undefined): boolean {
  return subscription?.status === 'active';
}

export interface StatusBadge {
  color: 'green' | 'gray' | 'yellow' | 'red';
  label: string;
}

const BADGES: Readonly<Record<string, StatusBadge>> = {
  active: { color: 'green', label: 'Active' },
  inactive: { color: 'gray', label: 'Inactive' },
  past_due: { color: 'yellow', label: 'Past Due' },
  cancelled: { color: 'red', label: 'Cancelled' },
};

/** Status -> badge; any other value is shown raw in gray. */
export function statusBadge(status: string): StatusBadge {
  return Object.hasOwn(BADGES, status) ? (BADGES[status] as StatusBadge) : { color: 'gray', label: status };
}

const LONG_DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** en-US long date ("October 9, 2025"), UTC; "N/A" when missing or invalid. */
export function formatLongDate(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return LONG_DATE.format(date);
}

/** Auto-renewal box text (spec §4 "Auto-renewal"). */
export function autoRenewalText(subscription: Pick<Subscription, 'cancelAtPeriodEnd'>): string {
  return subscription.cancelAtPeriodEnd
    ? 'Cancelled - subscription ends on billing date'
    : 'Active - automatically renews each period';
}

/** Label of the date row (spec §2 Account). */
export function endDateLabel(subscription: Pick<Subscription, 'cancelAtPeriodEnd'>): string {
  return subscription.cancelAtPeriodEnd ? 'Subscription Ends' : 'Next Billing';
}

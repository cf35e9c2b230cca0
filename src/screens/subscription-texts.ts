/**
 * Subscription texts for display (spec §4 "Subscription status display", §8 dates). Pure functions; the
 * flow rule `isActive` stays with the machines (machines/subscription-display.ts).
 */
import type { Subscription } from '../../contract/api';
import { PAST_DUE_DAYS } from '../../contract/limits';

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

function parseDate(value: string | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * en-US long date ("October 9, 2025") in the customer's time zone (design §8: a date is a day where the
 * customer lives; a renewal at 02:00 UTC on October 9 is October 8 in California). `timeZone` defaults to
 * the browser's own; tests pin it. "N/A" when missing or invalid (a table cell, never inside a sentence).
 */
export function formatLongDate(value: string | Date | null | undefined, timeZone?: string): string {
  const date = parseDate(value);
  if (!date) return 'N/A';
  return longDateWithoutIntl(date, timeZone) ?? longDateFormat(timeZone).format(date);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A long date in the browser's own zone (the Date's local time) or in UTC is written without Intl: the first
 * Intl object a page makes loads the browser's locale data, 30 to 60 ms here and four times that on a phone,
 * one long task on the account page (issue 32 item 4). tests/unit/money-text.test.ts checks it against Intl's.
 * Null for any other zone, and outside years 1000 to 9999, which Intl writes its own way.
 */
function longDateWithoutIntl(date: Date, timeZone: string | undefined): string | null {
  if (timeZone !== undefined && timeZone !== 'UTC') return null;
  const utc = timeZone === 'UTC';
  const year = utc ? date.getUTCFullYear() : date.getFullYear();
  if (year < 1000 || year > 9999) return null;
  return `${MONTHS[utc ? date.getUTCMonth() : date.getMonth()]} ${utc ? date.getUTCDate() : date.getDate()}, ${year}`;
}

/**
 * One format per time zone, made once: a new Intl.DateTimeFormat costs several milliseconds on a phone
 * (issue 32 item 4). For a zone named by a caller (tests, and any date not in the browser's own zone).
 */
const longDateFormats = new Map<string, Intl.DateTimeFormat>();
function longDateFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = longDateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone });
    longDateFormats.set(key, format);
  }
  return format;
}

/** "until October 9, 2025", or "until the end of the billing period" without a date: never "until N/A". */
export function untilText(value: string | Date | null | undefined, timeZone?: string): string {
  return parseDate(value) ? `until ${formatLongDate(value, timeZone)}` : 'until the end of the billing period';
}

/**
 * Auto-renewal box text (spec §4 "Auto-renewal"). Renewal off is not a cancelled plan: it stays active until
 * the date the card shows, and is not charged again (issue 34; design §8).
 */
export function autoRenewalText(subscription: Pick<Subscription, 'cancelAtPeriodEnd'>): string {
  return subscription.cancelAtPeriodEnd ? 'Off - you will not be charged again' : 'Active - automatically renews each period';
}

/** Label of the date row (spec §2 Account). */
export function endDateLabel(subscription: Pick<Subscription, 'cancelAtPeriodEnd'>): string {
  return subscription.cancelAtPeriodEnd ? 'Subscription Ends' : 'Next Billing';
}

/**
 * A subscription that grants nothing and will renew nothing: the card says it ended and shows no next billing
 * and no auto-renewal box. A cancelled one has ended whatever its end date says (a refund ends it at once and
 * leaves the paid period's end and renewal flag behind: issue 34); any other one but `active` and `past_due`
 * once its end date has passed. A past-due one has not ended: it waits for payment (`payByDate`).
 */
export function hasEnded(subscription: Pick<Subscription, 'status' | 'endDate'>, now: Date = new Date()): boolean {
  if (subscription.status === 'cancelled') return true;
  if (subscription.status === 'active' || subscription.status === 'past_due') return false;
  const end = parseDate(subscription.endDate);
  return end !== null && end.getTime() <= now.getTime();
}

/**
 * "Ended on <date>" when the end date has passed; "Ended" when it has not (it ended early). A refund that
 * ended it says so with the day it did: "Ended on <date>: refunded" (issue 45, T23); so does a renewal that
 * was never paid (T15).
 */
export function endedText(subscription: Pick<Subscription, 'endDate' | 'refundedAt' | 'endedUnpaidAt'>, now: Date = new Date(), timeZone?: string): string {
  const refunded = parseDate(subscription.refundedAt);
  if (refunded) return `Ended on ${formatLongDate(refunded, timeZone)}: refunded`;
  // A renewal never paid ended it (issue 45, T15).
  const unpaid = parseDate(subscription.endedUnpaidAt);
  if (unpaid) return `Ended on ${formatLongDate(unpaid, timeZone)}: the renewal was not paid`;
  const end = parseDate(subscription.endDate);
  return end !== null && end.getTime() <= now.getTime() ? `Ended on ${formatLongDate(end, timeZone)}` : 'Ended';
}

/**
 * The day by which a past-due subscription must be paid before it ends (`PAST_DUE_DAYS` after the renewal
 * that failed, its end date), or null without an end date.
 */
export function payByDate(subscription: Pick<Subscription, 'endDate'>): Date | null {
  const end = parseDate(subscription.endDate);
  return end ? new Date(end.getTime() + PAST_DUE_DAYS * 86_400_000) : null;
}

/** Subscription texts of the account page (spec §4 "Subscription status display", §8 dates). */
import { describe, expect, it } from 'vitest';
import { deviceAccess } from '../../machines/subscription-display';
import {
  autoRenewalText,
  endDateLabel,
  formatLongDate,
  statusBadge,
  untilText,
} from '../../src/screens/subscription-texts';

describe('subscription texts (spec §4, §8)', () => {
  it.each([
    ['active', 'green', 'Active'],
    ['inactive', 'gray', 'Inactive'],
    ['past_due', 'yellow', 'Past Due'],
    ['cancelled', 'red', 'Cancelled'],
    ['trialing', 'gray', 'trialing'],
    ['toString', 'gray', 'toString'],
  ])('badge for %s is %s "%s"', (status, color, label) => {
    expect(statusBadge(status)).toEqual({ color, label });
  });
  it('formats dates in en-US long form in the customer\'s time zone', () => {
    // 02:00 UTC on October 9 is still October 8 in California, already October 9 in Tokyo.
    expect(formatLongDate('2026-10-09T02:00:00.000Z', 'America/Los_Angeles')).toBe('October 8, 2026');
    expect(formatLongDate('2026-10-09T02:00:00.000Z', 'Asia/Tokyo')).toBe('October 9, 2026');
    expect(formatLongDate('2026-10-09T02:00:00.000Z', 'UTC')).toBe('October 9, 2026');
  });

  it('uses the runtime\'s own time zone by default (the browser\'s, in the page)', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatLongDate('2026-10-09T02:00:00.000Z')).toBe(formatLongDate('2026-10-09T02:00:00.000Z', zone));
  });

  it('says "until <date>", or "until the end of the billing period" with no date, never "until N/A"', () => {
    expect(untilText('2026-10-09T02:00:00.000Z', 'America/Los_Angeles')).toBe('until October 8, 2026');
    for (const missing of [null, undefined, '', 'not a date']) {
      expect(untilText(missing)).toBe('until the end of the billing period');
    }
  });

  it('formats dates in en-US long form, "N/A" when missing or invalid', () => {
    expect(formatLongDate('2025-10-09T12:00:00.000Z', 'UTC')).toBe('October 9, 2025');
    expect(formatLongDate(new Date(Date.UTC(2026, 0, 31, 12)), 'UTC')).toBe('January 31, 2026');
    expect(formatLongDate(undefined)).toBe('N/A');
    expect(formatLongDate(null)).toBe('N/A');
    expect(formatLongDate('')).toBe('N/A');
    expect(formatLongDate('not a date')).toBe('N/A');
  });
  it('describes auto-renewal and the date row', () => {
    expect(autoRenewalText({ cancelAtPeriodEnd: false })).toBe('Active - automatically renews each period');
    expect(autoRenewalText({ cancelAtPeriodEnd: true })).toBe('Off - you will not be charged again');
    expect(endDateLabel({ cancelAtPeriodEnd: true })).toBe('Subscription Ends');
    expect(endDateLabel({ cancelAtPeriodEnd: false })).toBe('Next Billing');
  });
});


describe('what has ended, and by when a past-due one must be paid (issue 34)', () => {
  const NOW = new Date('2026-11-26T12:00:00Z');
  it('a cancelled subscription has ended whatever its end date; past due and active have not', async () => {
    const { hasEnded, endedText, payByDate } = await import('../../src/screens/subscription-texts');
    expect(hasEnded({ status: 'cancelled', endDate: '2027-11-26T10:00:00Z' }, NOW)).toBe(true);
    expect(endedText({ endDate: '2027-11-26T10:00:00Z' }, NOW)).toBe('Ended');
    expect(endedText({ endDate: '2025-01-10T12:00:00Z' }, NOW, 'UTC')).toBe('Ended on January 10, 2025');
    // Issue 45: a refund ended it (T23), or a renewal never paid (T15): the day it ended, and why.
    expect(endedText({ endDate: '2027-11-26T10:00:00Z', refundedAt: '2026-11-27T09:00:00Z' }, NOW, 'UTC')).toBe('Ended on November 27, 2026: refunded');
    expect(endedText({ endDate: '2026-10-20T10:00:00Z', endedUnpaidAt: '2026-11-19T10:00:00Z' }, NOW, 'UTC')).toBe('Ended on November 19, 2026: the renewal was not paid');
    expect(hasEnded({ status: 'past_due', endDate: '2026-11-20T10:00:00Z' }, NOW)).toBe(false);
    expect(hasEnded({ status: 'active', endDate: '2025-11-20T10:00:00Z' }, NOW)).toBe(false);
    expect(hasEnded({ status: 'inactive', endDate: '2025-11-20T10:00:00Z' }, NOW)).toBe(true);
    expect(payByDate({ endDate: '2026-11-20T10:00:00Z' })?.toISOString()).toBe('2026-12-20T10:00:00.000Z');
    expect(payByDate({})).toBeNull();
  });
});

describe('whether the devices connect (issue 45 item 2)', () => {
  const now = new Date('2026-11-28T12:00:00Z');
  it('active connects; past due connects until the pay-by day, then waits for payment; anything else has ended', () => {
    expect(deviceAccess({ status: 'active' }, null, now)).toBe('connects');
    expect(deviceAccess({ status: 'past_due' }, new Date('2026-12-05T00:00:00Z'), now)).toBe('connects');
    expect(deviceAccess({ status: 'past_due' }, new Date('2026-11-20T00:00:00Z'), now)).toBe('pausedUntilPayment');
    expect(deviceAccess({ status: 'past_due' }, null, now)).toBe('connects');
    // The API's `unpaid` (issue 46 item 2): the retries ended before the pay-by day, and access with them.
    expect(deviceAccess({ status: 'past_due', unpaid: true }, new Date('2026-12-05T00:00:00Z'), now)).toBe('pausedUntilPayment');
    for (const status of ['cancelled', 'inactive', 'incomplete']) expect(deviceAccess({ status }, null, now), status).toBe('planEnded');
  });

  it('an account that never subscribed has no plan, not an ended one', () => {
    expect(deviceAccess(null, null, now)).toBe('noPlan');
    expect(deviceAccess(undefined, null, now)).toBe('noPlan');
  });
});

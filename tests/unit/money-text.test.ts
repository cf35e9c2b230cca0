/**
 * Dollars and long dates are written without Intl on the account page's first render (issue 32 item 4: the
 * first Intl object a page makes loads the browser's locale data, one long task on a phone). The text must
 * be exactly what Intl writes: these tests compare the two for every kind of amount and date.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatMoney, monthlyEquivalent, PLAN, planPrice } from '../../contract/plans';
import { formatLongDate } from '../../src/screens/subscription-texts';

/**
 * Intl's own formatters, made once per set of options: each one made loads locale data, and the loops below
 * compare thousands of values (made per call, one of them took over 5 s on a busy machine).
 */
function madeOnce<Options, Format>(make: (options: Options) => Format): (options: Options) => Format {
  const made = new Map<string, Format>();
  return (options) => {
    const key = JSON.stringify(options);
    if (!made.has(key)) made.set(key, make(options));
    return made.get(key)!;
  };
}
const moneyFormat = madeOnce((options: Intl.NumberFormatOptions) => new Intl.NumberFormat('en-US', options));
const dateFormat = madeOnce((options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', options));

const intlMoney = (amount: number, currency: string, digits?: number) =>
  moneyFormat({ style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: digits }).format(amount);

const AMOUNTS = [0, 1, 9, 10, 99, 100, 101, 999, 1_000, 10_000, 99_999, 100_000, 123_456, 1_000_000, 99_999_999, 123_456_789_012, -1, -500, -10_000, -123_456_789];

describe('formatMoney writes dollars as Intl does', () => {
  test.each(AMOUNTS)('%i cents', (cents) => {
    expect(formatMoney(cents, 'usd')).toBe(intlMoney(cents / 100, 'usd'));
    expect(formatMoney(cents, 'USD')).toBe(intlMoney(cents / 100, 'usd'));
  });

  test('every amount from 0 to $20.00, and a sample up to $10,000,000', () => {
    for (let cents = 0; cents <= 2_000; cents += 1) expect(formatMoney(cents, 'usd')).toBe(intlMoney(cents / 100, 'usd'));
    for (let cents = 2_000; cents < 1_000_000_000; cents = Math.floor(cents * 1.37) + 7) {
      expect(formatMoney(cents, 'usd')).toBe(intlMoney(cents / 100, 'usd'));
    }
  });

  test('other currencies keep their own digits and signs (through Intl)', () => {
    expect(formatMoney(1_000, 'jpy')).toBe('¥1,000');
    expect(formatMoney(10_050, 'eur')).toBe('€100.50');
    expect(formatMoney(-250, 'gbp')).toBe('-£2.50');
  });

  test('an amount that is not a whole number of cents is still written (through Intl)', () => {
    expect(formatMoney(12.5, 'usd')).toBe(intlMoney(0.125, 'usd'));
  });
});

describe('prices in running text drop the cents only when there are none', () => {
  test.each([
    [10_000, '$100'],
    [12_000, '$120'],
    [9_950, '$99.50'],
    [123_400, '$1,234'],
  ])('%i cents a year', (amount, price) => {
    const plan = { ...PLAN, amount, currency: 'usd' };
    expect(planPrice(plan)).toBe(price);
    expect(planPrice(plan)).toBe(intlMoney(amount / 100, 'usd', amount % 100 === 0 ? 0 : 2));
  });

  test('the monthly equivalent is rounded up to the cent', () => {
    expect(monthlyEquivalent({ ...PLAN, amount: 10_000, interval: 'year' })).toBe('$8.34');
    expect(monthlyEquivalent({ ...PLAN, amount: 12_000, interval: 'year' })).toBe('$10');
    expect(monthlyEquivalent({ ...PLAN, amount: 1_000, currency: 'jpy', interval: 'year' })).toBe('¥84');
  });
});

describe('formatLongDate writes the browser-zone and UTC dates as Intl does', () => {
  // Node reads TZ again when it changes: the browser's own zone, here one west of UTC.
  const zoneBefore = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterAll(() => {
    if (zoneBefore === undefined) delete process.env.TZ;
    else process.env.TZ = zoneBefore;
  });

  const intlDate = (date: Date, timeZone?: string) => dateFormat({ year: 'numeric', month: 'long', day: 'numeric', timeZone }).format(date);

  test('a renewal at 02:00 UTC on October 9 is October 8 in California and October 9 in UTC', () => {
    expect(formatLongDate('2025-10-09T02:00:00Z')).toBe('October 8, 2025');
    expect(formatLongDate('2025-10-09T02:00:00Z', 'UTC')).toBe('October 9, 2025');
    expect(formatLongDate('2025-10-09T02:00:00Z', 'Asia/Tokyo')).toBe('October 9, 2025');
  });

  test('every day of two years, at midnight and at 23:30 UTC, in both zones', () => {
    for (let day = 0; day < 731; day += 1) {
      for (const minute of [0, 23 * 60 + 30]) {
        const date = new Date(Date.UTC(2027, 0, 1) + day * 86_400_000 + minute * 60_000);
        expect(formatLongDate(date)).toBe(intlDate(date));
        expect(formatLongDate(date, 'UTC')).toBe(intlDate(date, 'UTC'));
      }
    }
  });

  test('years Intl writes its own way still come out as Intl writes them', () => {
    const early = new Date(Date.UTC(999, 5, 15));
    expect(formatLongDate(early, 'UTC')).toBe(intlDate(early, 'UTC'));
    const late = new Date(Date.UTC(10_000, 0, 15));
    expect(formatLongDate(late, 'UTC')).toBe(intlDate(late, 'UTC'));
  });

  test('missing and invalid dates are N/A', () => {
    expect(formatLongDate(null)).toBe('N/A');
    expect(formatLongDate('not a date')).toBe('N/A');
  });
});

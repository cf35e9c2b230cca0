/**
 * The plan the product sells and the promises made with it (issue 33, item 1): its price and billing
 * interval, how long the money-back guarantee runs and when the renewal notices go out. Every page, e-mail,
 * the local checkout, receipts, the refund rule and the reminder sweep read them here, so a new price, a
 * monthly plan or another guarantee is one edit in this file (plus the tests that pin the words);
 * tests/unit/plan-terms.test.ts fails on a price, interval or guarantee length written anywhere else.
 * Dependency-free, like limits.ts, so the public pages can import it. The formatters take the plan (or the
 * days) as an argument rather than reading the constants, so a test can render every text from another plan.
 */

type PlanInterval = 'year' | 'month';

export interface Plan {
  /** Stable identifier of the plan (metadata, logs); never shown. */
  id: string;
  /** What one period costs, in the currency's smallest unit (10000 = $100.00). */
  amount: number;
  /** ISO 4217 code, lower case as the payment provider writes it. */
  currency: string;
  /** How often the plan renews (and charges `amount`). */
  interval: PlanInterval;
  /** The setting naming the provider's price for this plan, which must charge `amount` every `interval`. */
  priceSetting: 'STRIPE_PRICE_ID';
}

/** The one plan on sale. */
export const PLAN: Plan = { id: 'premium', amount: 10_000, currency: 'usd', interval: 'year', priceSetting: 'STRIPE_PRICE_ID' };

/** The money-back guarantee: within this many days of an account's first payment (design §8). */
export const MONEY_BACK_DAYS = 30;

/** Renewal reminders go out this many days before an auto-renewing plan renews, earliest first. */
export const RENEWAL_REMINDER_DAYS: readonly number[] = [30, 7];

/** A plan whose auto-renewal is off gets "ends in N days" this many days before it ends. */
export const PLAN_ENDING_NOTICE_DAYS = 7;

const DAY_MS = 86_400_000;

/** `days` as milliseconds, for the rules that measure windows in days. */
export function daysInMs(days: number): number {
  return days * DAY_MS;
}

/**
 * en-US currency formats, made once per currency and digits: a new Intl.NumberFormat costs about a
 * millisecond on a phone (issue 32 item 4: the account page formatted a dozen amounts, each with two or three).
 */
const currencyFormats = new Map<string, Intl.NumberFormat>();
function currencyFormat(currency: string, minimumFractionDigits?: number): Intl.NumberFormat {
  const key = `${currency.toUpperCase()}/${minimumFractionDigits ?? ''}`;
  let format = currencyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits });
    currencyFormats.set(key, format);
  }
  return format;
}

/**
 * US dollars, the plan's currency, are written without Intl: the first Intl object a page makes loads the
 * browser's locale data, 30 to 60 ms here and four times that on a phone, one long task on the account page
 * (issue 32 item 4). Any other currency goes through Intl. tests/unit/money-text.test.ts checks this text
 * against Intl's for every kind of amount. Null when the amount is not a whole number of cents.
 */
function dollarsWithoutIntl(cents: number, withCents: boolean): string | null {
  if (!Number.isSafeInteger(cents) || Object.is(cents, -0)) return null;
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const dollars = String(Math.floor(absolute / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${dollars}${withCents ? `.${String(absolute % 100).padStart(2, '0')}` : ''}`;
}

const isDollars = (currency: string) => currency.toLowerCase() === 'usd';

/** The currency's minor digits: 2 for usd, 0 for jpy. */
function minorDigits(currency: string): number {
  if (isDollars(currency)) return 2;
  return currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * An amount in the currency's smallest unit as text: with its minor digits always ("$100.00", for billing),
 * or only when it has any ("$100", "$99.50": how prices are written in running text).
 */
function moneyText(amount: number, currency: string, { alwaysMinor }: { alwaysMinor: boolean }): string {
  const digits = minorDigits(currency);
  const withMinor = alwaysMinor || amount % 10 ** digits !== 0;
  const byHand = isDollars(currency) ? dollarsWithoutIntl(amount, withMinor) : null;
  return byHand ?? currencyFormat(currency, withMinor ? undefined : 0).format(amount / 10 ** digits);
}

/** "$100.00" for 10000 usd: an amount in the currency's smallest unit, with its minor digits. */
export function formatMoney(amount: number, currency: string): string {
  return moneyText(amount, currency, { alwaysMinor: true });
}

/** "$100": the plan's price in running text. */
export function planPrice(plan: Plan): string {
  return moneyText(plan.amount, plan.currency, { alwaysMinor: false });
}

/**
 * The plan's price per month, rounded up to the cent: "$8.34" for $100 a year ($8.333…), "$10" for $120.
 * Rounded up, so that the customer is never told less than the plan costs.
 */
export function monthlyEquivalent(plan: Plan): string {
  const months = plan.interval === 'year' ? 12 : 1;
  return moneyText(Math.ceil(plan.amount / months), plan.currency, { alwaysMinor: false });
}

/** The words a text uses for the plan's interval: "year", "yearly", "annual" (or "month", "monthly", "monthly"). */
export function intervalWords(plan: Plan): { noun: string; adjective: string; formalAdjective: string } {
  return plan.interval === 'year'
    ? { noun: 'year', adjective: 'yearly', formalAdjective: 'annual' }
    : { noun: 'month', adjective: 'monthly', formalAdjective: 'monthly' };
}

/** "30-day money-back guarantee". */
export function moneyBackGuarantee(days: number): string {
  return `${days}-day money-back guarantee`;
}

/**
 * Said before paying (issue 20, item 7: automatic-renewal laws): on the home page's price card (issue 34),
 * the subscribe page, the local checkout and Stripe Checkout's custom text, one sentence for all four.
 */
export function renewalDisclosure(plan: Plan): string {
  return `Your plan renews automatically every ${plan.interval} at ${planPrice(plan)} until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.`;
}

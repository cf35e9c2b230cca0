/**
 * The brand: every product name, operator, address, link, scheme and price the website shows comes from
 * here (design §6). Each value can be overridden at build time with a VITE_* variable.
 */
import { DEVICE_LIMIT } from '../../contract/limits';
import {
  intervalWords,
  MONEY_BACK_DAYS,
  moneyBackGuarantee,
  monthlyEquivalent,
  PLAN,
  PLAN_ENDING_NOTICE_DAYS,
  planPrice,
  RENEWAL_REMINDER_DAYS,
  renewalDisclosure,
} from '../../contract/plans';

const env = import.meta.env;

function pick(value: string | undefined, fallback: string): string {
  return value && value.trim() !== '' ? value.trim() : fallback;
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const interval = intervalWords(PLAN);

const productName = pick(env.VITE_PRODUCT_NAME, 'Veil VPN');

/** A whole number of days from a VITE_* variable, else `fallback` (production's API refuses an unset one). */
function days(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}
const scheme = pick(env.VITE_DEEP_LINK_SCHEME, 'veilvpn');

export const brand = {
  productName,
  /** The plan's display name, e.g. "Veil VPN Premium". */
  premiumName: `${productName} Premium`,
  operator: pick(env.VITE_OPERATOR_NAME, 'Veil Labs, Inc.'),
  operatorDescription: 'a US technology company',
  supportEmail: pick(env.VITE_SUPPORT_EMAIL, 'support@example.com'),
  /**
   * What the privacy policy says of production logs and traces (issue 31, item 6): the operator's choice,
   * the same VITE_* values the API reads at start-up, where production refuses to start without them.
   */
  logRetentionDays: days(env.VITE_LOG_RETENTION_DAYS, 14),
  traceRetentionDays: days(env.VITE_TRACE_RETENTION_DAYS, 7),
  /** The tracing backend, named as a processor when tracing is on; null: tracing is off. */
  tracingProcessor: env.VITE_TRACING_PROCESSOR?.trim() || null,
  /** One download per platform (issue 22 item 3); /download lists them, src/config/platforms.ts picks one. */
  downloadUrls: {
    macos: pick(env.VITE_DOWNLOAD_URL_MACOS, 'https://example.com/download/macos'),
    windows: pick(env.VITE_DOWNLOAD_URL_WINDOWS, 'https://example.com/download/windows'),
    ios: pick(env.VITE_DOWNLOAD_URL_IOS, 'https://example.com/download/ios'),
    android: pick(env.VITE_DOWNLOAD_URL_ANDROID, 'https://example.com/download/android'),
  },
  learnMoreUrl: pick(env.VITE_LEARN_MORE_URL, 'https://example.com/learn-more'),
  deepLinks: {
    /** The hand-off link; the token is a one-time hand-off token (design §7). */
    auth: (token: string) => `${scheme}://auth?token=${encodeURIComponent(token)}`,
    success: `${scheme}://success`,
    cancel: `${scheme}://cancel`,
  },
  /** The plan's terms in the website's words; the plan itself is contract/plans.ts. */
  price: {
    /** The price in running text (planPrice). */
    amount: planPrice(PLAN),
    /** The interval's noun and adjectives (intervalWords). */
    interval,
    /** The price per month, rounded up to the cent (monthlyEquivalent). */
    perMonth: monthlyEquivalent(PLAN),
    /** The pricing cards' badge: the interval's formal adjective, capitalised. */
    badge: capitalized(interval.formalAdjective),
    planName: `Single ${capitalized(interval.formalAdjective)} Plan`,
    tierName: 'Premium',
    /** Under a pricing card's own price: the per-month figure alone, so a card says its price once (issue 34). */
    monthlyNote: `About ${monthlyEquivalent(PLAN)} per month`,
    /** The price per interval and per month, where no card states the price above it (/cancel). */
    summary: `${planPrice(PLAN)} per ${interval.noun}, about ${monthlyEquivalent(PLAN)} per month`,
    /** Said before paying: the server's checkout pages say the same sentence. */
    renewalDisclosure: renewalDisclosure(PLAN),
  },
  /** The money-back guarantee's name (moneyBackGuarantee) and its days. */
  moneyBack: { name: moneyBackGuarantee(MONEY_BACK_DAYS), days: MONEY_BACK_DAYS },
  /** When renewal notices are mailed (the privacy policy lists them). */
  notices: { reminderDays: RENEWAL_REMINDER_DAYS, endingDays: PLAN_ENDING_NOTICE_DAYS },
  /** One device limit everywhere, the one the API enforces (contract/limits.ts). */
  deviceLimit: DEVICE_LIMIT,
  legalLastUpdated: 'October 9, 2025',
} as const;

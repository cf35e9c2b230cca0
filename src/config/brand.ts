/**
 * The brand: every product name, operator, address, link, scheme and price the website shows comes from
 * here (design §6). Each value can be overridden at build time with a VITE_* variable.
 */
import { DEVICE_LIMIT } from '../../contract/limits';

const env = import.meta.env;

function pick(value: string | undefined, fallback: string): string {
  return value && value.trim() !== '' ? value.trim() : fallback;
}

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
  price: {
    amountUsd: 100,
    perMonthUsd: 8.33,
    planName: 'Single Annual Plan',
    tierName: 'Premium',
    /** "$100 per year, less than $8.33 per month" */
    summary: '$100 per year, less than $8.33 per month',
  },
  /** One device limit everywhere, the one the API enforces (contract/limits.ts). */
  deviceLimit: DEVICE_LIMIT,
  legalLastUpdated: 'October 9, 2025',
} as const;

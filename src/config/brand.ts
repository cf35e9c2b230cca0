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
const AMOUNT_USD = 100;
/** $100 a year is $8.333… a month: "about $8.33", never "less than $8.33" (which is false, issue 34). */
const PER_MONTH_USD = (AMOUNT_USD / 12).toFixed(2);
const scheme = pick(env.VITE_DEEP_LINK_SCHEME, 'veilvpn');

export const brand = {
  productName,
  /** The plan's display name, e.g. "Veil VPN Premium". */
  premiumName: `${productName} Premium`,
  operator: pick(env.VITE_OPERATOR_NAME, 'Veil Labs, Inc.'),
  operatorDescription: 'a US technology company',
  supportEmail: pick(env.VITE_SUPPORT_EMAIL, 'support@example.com'),
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
    amountUsd: AMOUNT_USD,
    perMonthUsd: PER_MONTH_USD,
    planName: 'Single Annual Plan',
    tierName: 'Premium',
    /** Under a card's "$100 per year": the monthly figure alone, so the card says the price once. */
    monthlyNote: `About $${PER_MONTH_USD} a month`,
    /** "$100 per year, about $8.33 a month", where no card states the price above it. */
    summary: `$${AMOUNT_USD} per year, about $${PER_MONTH_USD} a month`,
  },
  /** One device limit everywhere, the one the API enforces (contract/limits.ts). */
  deviceLimit: DEVICE_LIMIT,
  legalLastUpdated: 'October 9, 2025',
} as const;

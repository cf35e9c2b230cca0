/** The few brand facts the API itself shows (the local checkout page); the SPA's are in src/config/brand.ts. */
const productName = process.env.VITE_PRODUCT_NAME?.trim() || 'Veil VPN';
const pick = (value: string | undefined, fallback: string) => value?.trim() || fallback;

export const brandForServer = {
  productName,
  planName: `${productName} Premium`,
  priceText: '$100 per year',
  payLabel: 'Pay $100',
  /** The yearly price in cents, as the local checkout charges it and the renewal reminders state it. */
  yearlyPrice: { amount: 10_000, currency: 'usd' },
  /** As in src/config/brand.ts (the same VITE_* overrides), for the e-mails' footer. */
  operator: pick(process.env.VITE_OPERATOR_NAME, 'Veil Labs, Inc.'),
  supportEmail: pick(process.env.VITE_SUPPORT_EMAIL, 'support@example.com'),
  /** The theme's violet (src/theme/theme.ts, shades 7 and 0) for the e-mails, which cannot read CSS variables. */
  colors: { primary: '#5f3ec4', primaryTint: '#f3f0ff', text: '#1f1f24', muted: '#5c5f66', border: '#e5e5ea' },
  /** Said before paying (issue 20, item 7: automatic-renewal laws); the SPA's subscribe card says the same. */
  renewalDisclosure:
    'Your plan renews automatically every year at $100 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.',
} as const;

export type ServerBrand = typeof brandForServer;

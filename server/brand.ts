/** The few brand facts the API itself shows (the local checkout page); the SPA's are in src/config/brand.ts. */
const productName = process.env.VITE_PRODUCT_NAME?.trim() || 'Veil VPN';

export const brandForServer = {
  productName,
  planName: `${productName} Premium`,
  priceText: '$100 per year',
  payLabel: 'Pay $100',
  /** Who charges the card: named on receipts (src/config/brand.ts has the same default). */
  operator: process.env.VITE_OPERATOR_NAME?.trim() || 'Veil Labs, Inc.',
  /** Said before paying (issue 20, item 7: automatic-renewal laws); the SPA's subscribe card says the same. */
  renewalDisclosure:
    'Your plan renews automatically every year at $100 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.',
} as const;

export type ServerBrand = typeof brandForServer;

/** The few brand facts the API itself shows (the local checkout page); the SPA's are in src/config/brand.ts. */
const productName = process.env.VITE_PRODUCT_NAME?.trim() || 'Veil VPN';

export const brandForServer = {
  productName,
  planName: `${productName} Premium`,
  priceText: '$100 per year',
  payLabel: 'Pay $100',
} as const;

export type ServerBrand = typeof brandForServer;

/** The few brand facts the API itself shows (its local checkout pages and its e-mails); the SPA's are in src/config/brand.ts. */
import { intervalWords, PLAN, planPrice, renewalDisclosure } from '../contract/plans.ts';

const productName = process.env.VITE_PRODUCT_NAME?.trim() || 'Veil VPN';
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const pick = (value: string | undefined, fallback: string) => value?.trim() || fallback;

export const brandForServer = {
  productName,
  planName: `${productName} Premium`,
  /** The plan's terms in the local checkout's words; the plan itself is contract/plans.ts. */
  priceText: `${planPrice(PLAN)} per ${PLAN.interval}`,
  offerName: `Single ${capitalized(intervalWords(PLAN).formalAdjective)} Plan`,
  payLabel: `Pay ${planPrice(PLAN)}`,
  /** As in src/config/brand.ts (the same VITE_* overrides), for the e-mails' footer. */
  operator: pick(process.env.VITE_OPERATOR_NAME, 'Veil Labs, Inc.'),
  supportEmail: pick(process.env.VITE_SUPPORT_EMAIL, 'support@example.com'),
  /** The theme's violet (src/theme/theme.ts, shades 7 and 0) for the e-mails, which cannot read CSS variables. */
  colors: { primary: '#5f3ec4', primaryTint: '#f3f0ff', text: '#1f1f24', muted: '#5c5f66', border: '#e5e5ea' },
  /** Said before paying (issue 20, item 7: automatic-renewal laws); the SPA's subscribe card says the same. */
  renewalDisclosure: renewalDisclosure(PLAN),
} as const;

export type ServerBrand = typeof brandForServer;

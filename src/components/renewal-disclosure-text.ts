import { brand } from '../config/brand';

/**
 * Said where the price is shown and before paying (issue 20, item 7; issue 34; California's
 * automatic-renewal law, EU and UK rules): the plan renews by itself, at what price, until when, and where
 * to turn it off. The local checkout page and Stripe Checkout (custom_text) say the same (server/brand.ts).
 * Plain text, so the home page shows it without Mantine.
 */
export const RENEWAL_DISCLOSURE = `Your plan renews automatically every year at $${brand.price.amountUsd} until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.`;

import { Text } from '@mantine/core';
import { brand } from '../config/brand';

/**
 * Said before paying (issue 20, item 7; California's automatic-renewal law, EU and UK rules): the plan
 * renews by itself, at what price, until when, and where to turn it off. The home page's price card,
 * the local checkout page and Stripe Checkout (custom_text) say the same sentence (contract/plans.ts,
 * renewalDisclosure).
 */
export function RenewalDisclosure() {
  return (
    <Text size="sm" c="dimmed" id="renewal-disclosure">
      {brand.price.renewalDisclosure}
    </Text>
  );
}

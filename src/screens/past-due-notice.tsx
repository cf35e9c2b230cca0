import { Alert, Button, Text } from '@mantine/core';
import { brand } from '../config/brand';

/**
 * A declined renewal (issue 20, item 5): the subscription is past due; two clicks settle it, "Update
 * payment method" and the provider's page.
 */
export function PastDueNotice({ onUpdatePaymentMethod, opening }: { onUpdatePaymentMethod: () => void; opening: boolean }) {
  return (
    <Alert color="red" variant="light" title="Your renewal payment failed">
      <Text size="sm">
        We could not charge your card for your {brand.price.interval.adjective} renewal, so your VPN is paused. Update your payment method to pay and
        keep your plan; it renews from its original date.
      </Text>
      <Button size="sm" mt="sm" onClick={onUpdatePaymentMethod} loading={opening}>
        Update payment method
      </Button>
    </Alert>
  );
}

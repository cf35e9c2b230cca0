import { Text } from '@mantine/core';
import { RENEWAL_DISCLOSURE } from './renewal-disclosure-text';

export function RenewalDisclosure() {
  return (
    <Text size="sm" c="dimmed" id="renewal-disclosure">
      {RENEWAL_DISCLOSURE}
    </Text>
  );
}

import { Button, Group, Text } from '@mantine/core';
import { ConfirmDialog } from '../components/confirm-dialog';
import { brand } from '../config/brand';

/**
 * The desktop app asked to be signed in (/account?pair=…): nothing is minted or opened until the customer
 * says yes here, since any app that registered the link scheme, or any page, can open that address
 * (docs/decisions.md, "Pairing asks first").
 */
export function PairingDialog({ opened, email, onConfirm, onDismiss }: { opened: boolean; email: string; onConfirm: () => void; onDismiss: () => void }) {
  return (
    <ConfirmDialog opened={opened} onClose={onDismiss} title={`Sign in the ${brand.productName} app?`}>
      <Text size="sm">
        The {brand.productName} app on this computer will be signed in to your account ({email}) and can connect with your
        subscription.
      </Text>
      <Text size="sm" mt="sm">
        Continue only if you just chose Sign In in the {brand.productName} app yourself. If you did not, choose Not Now: nothing
        is shared.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onDismiss}>
          Not Now
        </Button>
        <Button onClick={onConfirm}>Sign In the App</Button>
      </Group>
    </ConfirmDialog>
  );
}

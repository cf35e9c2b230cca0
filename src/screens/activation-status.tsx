import { Alert, Button, Group, Loader, Text } from '@mantine/core';

/** Where the activation machine is: checking, done, or past its checks (machines/activation.ts). */
export type ActivationPhase = 'activating' | 'active' | 'timedOut';

/** The /success page's answer to "is my subscription on yet?" while the payment webhook is awaited. */
export function ActivationStatus({ phase, onRetry }: { phase: ActivationPhase; onRetry: () => void }) {
  if (phase === 'activating') {
    return (
      <Alert mt="lg" variant="light" color="blue" role="status" aria-live="polite" title="Activating your subscription…">
        <Group gap="sm" wrap="nowrap">
          <Loader size="sm" aria-hidden="true" />
          <Text size="sm">We are confirming your payment with our payment provider. This usually takes a few seconds.</Text>
        </Group>
      </Alert>
    );
  }
  if (phase === 'active') {
    return (
      <Alert mt="lg" variant="light" color="green" role="status" title="Your subscription is active">
        <Text size="sm">Premium is ready on all your devices.</Text>
      </Alert>
    );
  }
  return (
    <Alert mt="lg" variant="light" color="yellow" role="status" title="Activation is taking longer than usual">
      <Text size="sm">
        Your payment went through, but we have not received the confirmation yet. You will not be charged twice; check again
        in a minute, or contact support if it does not activate.
      </Text>
      <Button size="xs" mt="sm" variant="default" onClick={onRetry}>
        Check again
      </Button>
    </Alert>
  );
}

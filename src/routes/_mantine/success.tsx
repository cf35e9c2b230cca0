import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { provideActivation } from '../../app/account-services';
import { useAppActors } from '../../app/app-context';
import { useSessionUser } from '../../app/use-session';
import { SuccessPage } from '../../screens/success-page';

export const Route = createFileRoute('/_mantine/success')({
  component: SuccessRoute,
});

function SuccessRoute() {
  const user = useSessionUser();
  // Signed out (e.g. another browser paid): the page's fixed content is all there is to show.
  return <SuccessPage status={user ? <ActivationStatus /> : null} />;
}

function ActivationStatus() {
  const actors = useAppActors();
  const machine = useMemo(() => provideActivation(actors), [actors]);
  const [state, send] = useMachine(machine, { input: {}, inspect: actors.inspect });

  if (state.hasTag('activating')) {
    return (
      <Alert mt="lg" variant="light" color="blue" role="status" aria-live="polite" title="Activating your subscription…">
        <Group gap="sm" wrap="nowrap">
          <Loader size="sm" aria-hidden="true" />
          <Text size="sm">We are confirming your payment with our payment provider. This usually takes a few seconds.</Text>
        </Group>
      </Alert>
    );
  }
  if (state.matches('active')) {
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
      <Button size="xs" mt="sm" variant="default" onClick={() => send({ type: 'activation.retry' })}>
        Check again
      </Button>
    </Alert>
  );
}

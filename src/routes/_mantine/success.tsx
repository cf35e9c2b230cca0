import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { provideActivation } from '../../app/account-services';
import { useAppActors } from '../../app/app-context';
import { useSessionUser } from '../../app/use-session';
import { useAppLink } from '../../app/use-app-link';
import { useVisitorPlatform } from '../../components/use-visitor-platform';
import { brand } from '../../config/brand';
import { openAppLink } from '../../services/navigation';
import { ActivationStatus } from '../../screens/activation-status';
import { SuccessPage } from '../../screens/success-page';

export const Route = createFileRoute('/_mantine/success')({
  component: SuccessRoute,
});

function SuccessRoute() {
  const user = useSessionUser();
  const app = useAppLink(() => openAppLink(brand.deepLinks.success));
  const platform = useVisitorPlatform();
  // Signed out (e.g. another browser paid): the page's fixed content is all there is to show.
  return (
    <SuccessPage
      status={user ? <ActivationWiring /> : null}
      appLink={{ phase: app.phase, onOpen: app.open }}
      phone={platform?.kind === 'phone' ? platform : null}
    />
  );
}

function ActivationWiring() {
  const actors = useAppActors();
  const machine = useMemo(() => provideActivation(actors), [actors]);
  const [state, send] = useMachine(machine, { input: {}, inspect: actors.inspect });
  const phase = state.hasTag('activating') ? 'activating' : state.matches('active') ? 'active' : 'timedOut';
  return <ActivationStatus phase={phase} onRetry={() => send({ type: 'activation.retry' })} />;
}

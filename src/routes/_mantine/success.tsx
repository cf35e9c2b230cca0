import { createFileRoute } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import { useSessionUser } from '../../app/use-session';
import { SuccessPage } from '../../screens/success-page';

// Only a signed-in visitor sees it, and only once the session has loaded: its code (XState, the activation
// machine) stays off the page's first load (issue 25).
const ActivationWiring = lazy(() => import('./-success-activation').then((module) => ({ default: module.ActivationWiring })));

export const Route = createFileRoute('/_mantine/success')({
  component: SuccessRoute,
});

function SuccessRoute() {
  const user = useSessionUser();
  // Signed out (e.g. another browser paid): the page's fixed content is all there is to show.
  return (
    <SuccessPage
      status={
        user ? (
          <Suspense fallback={null}>
            <ActivationWiring />
          </Suspense>
        ) : null
      }
    />
  );
}

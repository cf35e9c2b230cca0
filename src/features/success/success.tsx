import { Suspense, lazy } from 'react';
import { useSessionUser } from '../../app/hooks/use-session';
import { useAppLink } from '../../app/hooks/use-app-link';
import { useVisitorPlatform } from '../../components/use-visitor-platform';
import { brand } from '../../config/brand';
import { openAppLink } from '../../services/navigation';
import { SuccessPage } from '../../screens/success-page';
import { mantinePage } from '../../app/frame/mantine-page';

// Only a signed-in visitor sees it, and only once the session has loaded: its code (XState, the activation
// machine) stays off the page's first load (issue 25).
const ActivationWiring = lazy(() => import('./success-activation').then((module) => ({ default: module.ActivationWiring })));

/** /success wired to the session and the app link (src/routes/_mantine/success.tsx shows it under the router). */
export function Success() {
  const user = useSessionUser();
  const app = useAppLink(() => openAppLink(brand.deepLinks.success));
  const platform = useVisitorPlatform();
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
      appLink={{ phase: app.phase, onOpen: app.open }}
      phone={platform?.kind === 'phone' ? platform : null}
      signedIn={Boolean(user)}
    />
  );
}

export const PublicPage = mantinePage(Success);

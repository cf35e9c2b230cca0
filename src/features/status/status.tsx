import { Suspense, lazy } from 'react';
import { useHydrated } from '../../components/use-hydrated';
import { StatusPage } from '../../screens/status-page';
import { mantinePage } from '../../app/frame/mantine-page';

// The figures' code (XState, the machine, the API client) loads once the page is hydrated: the page's
// first load stays as light as the other public pages' (issue 25).
const StatusWiring = lazy(() => import('./status-wiring').then((module) => ({ default: module.StatusWiring })));

const loading = <StatusPage status={null} receivedAt={null} failed={false} now={0} />;

/** /status (src/routes/_mantine/status.tsx shows it under the router): prerendered loading, then live. */
export function Status() {
  const hydrated = useHydrated();
  return hydrated ? (
    <Suspense fallback={loading}>
      <StatusWiring />
    </Suspense>
  ) : (
    loading
  );
}

export const PublicPage = mantinePage(Status);

import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { PageSpinner } from '../components/page-spinner';
import { AuthErrorPage } from '../screens/auth-error-page';
import type { SessionActor } from './app-actors';

/** Spec §2 Start-up: the app renders only after authentication initialised; on failure, the error page. */
export function AppRoot({ session, router }: { session: SessionActor; router: AnyRouter }) {
  const error = useSelector(session, (state) => (state.hasTag('failed') ? (state.context.error ?? 'Unknown error') : null));
  // While the API is unreachable the session is still checked (`reconnecting`), but the pages need not wait.
  const loading = useSelector(session, (state) => state.hasTag('loading') && !state.hasTag('reconnecting'));
  if (error !== null) return <AuthErrorPage message={error} onReload={() => window.location.reload()} />;
  if (loading) return <PageSpinner label="Starting" />;
  return <RouterProvider router={router} />;
}

import type { ReactNode } from 'react';
import { AuthErrorPage } from '../../screens/auth-error-page';
import { useHydrated } from '../../components/use-hydrated';
import { useSessionView } from '../hooks/use-session';

/**
 * Spec §2 Start-up, as design §5 reads it: nothing that depends on the session shows before it (the
 * header's account area, /account and the signed-in part of /subscribe wait for it themselves), so the
 * prerendered public pages show at once; if authentication fails to initialise, the full-page error.
 */
export function StartUpGate({ children }: { children: ReactNode }) {
  const error = useSessionView((state) => (state.hasTag('failed') ? (state.context.error ?? 'Unknown error') : null));
  // While hydrating, the prerendered page itself: the error page replaces it right after.
  const hydrated = useHydrated();
  if (error !== null && hydrated) return <AuthErrorPage message={error} onReload={() => window.location.reload()} />;
  return children;
}

/**
 * The route guard of design §5: one mechanism, two options. Waits while the session loads; no user ->
 * `/signin` (remembering where to return); subscription required and not `active` -> `/subscribe`.
 */
import { redirect } from '@tanstack/react-router';
import { isActive } from '../../../machines/subscription-display';
import type { RouterContext } from './router-context';

export interface GuardOptions {
  requireSubscription?: boolean;
}

export async function guardRoute(
  { context, location }: { context: RouterContext; location: { href: string } },
  { requireSubscription = false }: GuardOptions = {},
): Promise<void> {
  // The prerendered shell of a guarded page: drawn as the page waits for the session; the browser runs this
  // guard before it renders the page for real (src/main.tsx).
  if (context.prerendering) return;
  const snapshot = await context.actors.session.settled();
  if (!snapshot.hasTag('signedIn')) {
    throw redirect({ to: '/signin', search: { redirect: location.href } });
  }
  if (requireSubscription && !isActive(snapshot.context.subscription)) {
    throw redirect({ to: '/subscribe' });
  }
}

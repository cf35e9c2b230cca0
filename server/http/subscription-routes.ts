/** Checkout and auto-renewal calls under /api/subscription; both carry a Firebase ID token (spec §7). */
import type { FastifyInstance } from 'fastify';
import { cancelSubscriptionRequestSchema, createCheckoutRequestSchema } from '../../contract/api.ts';
import { accountOfIdentity } from '../domain/accounts.ts';
import { openCheckoutFor } from '../domain/checkouts.ts';
import { turnOffRenewal } from '../domain/subscriptions.ts';
import type { AppDeps } from './context.ts';
import { parseBody } from './validation.ts';

export async function subscriptionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;
  // These calls move money: a disabled or signed-out-everywhere user is refused (revocation check).
  const verified = (idToken: string) => deps.verifier.verify(idToken, { checkRevoked: true });

  app.post('/create-checkout', async (request) => {
    const body = parseBody(createCheckoutRequestSchema, request.body);
    return { url: await openCheckoutFor(db, deps.payments, await verified(body.idToken)) };
  });

  app.post('/cancel', async (request) => {
    const body = parseBody(cancelSubscriptionRequestSchema, request.body);
    const user = await accountOfIdentity(db, await verified(body.idToken));
    return { success: true, subscription: await turnOffRenewal(db, deps.payments, user.id) };
  });
}

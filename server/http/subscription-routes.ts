/** Checkout and auto-renewal calls under /api/subscription; both carry a Firebase ID token (spec §7). */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { cancelSubscriptionRequestSchema, createCheckoutRequestSchema } from '../../contract/api.ts';
import { users } from '../db/schema.ts';
import { ApiFailure, failures } from '../domain/errors.ts';
import { openCheckout } from '../domain/checkouts.ts';
import { findLiveSubscriptions, findSubscription, recordProviderAnswer, toApiSubscription } from '../domain/subscriptions.ts';
import type { AppDeps } from './context.ts';
import { parseBody } from './validation.ts';

export async function subscriptionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  async function userOfIdToken(idToken: string) {
    // These calls move money: a disabled or signed-out-everywhere user is refused (revocation check).
    const identity = await deps.verifier.verify(idToken, { checkRevoked: true });
    const [user] = await db.select().from(users).where(eq(users.identitySubject, identity.subject));
    if (!user) throw new ApiFailure(401, 'Please sign in again before continuing.');
    return user;
  }

  app.post('/create-checkout', async (request) => {
    const body = parseBody(createCheckoutRequestSchema, request.body);
    const user = await userOfIdToken(body.idToken);
    try {
      return { url: await openCheckout(db, deps.payments, user) };
    } catch (error) {
      if (error instanceof ApiFailure) throw error;
      request.log.error({ err: error }, 'checkout could not be created');
      throw new ApiFailure(502, 'Failed to create checkout session');
    }
  });

  app.post('/cancel', async (request) => {
    const body = parseBody(cancelSubscriptionRequestSchema, request.body);
    const user = await userOfIdToken(body.idToken);
    // Every live subscription of the account (there should be one; a stray second one is not spared).
    const live = await findLiveSubscriptions(db, user.id);
    if (live.length === 0) throw failures.noSubscription();
    for (const subscription of live.filter((row) => !row.cancelAtPeriodEnd)) {
      try {
        // Stored at once, as the provider answered: the page shows renewal off now; the webhook confirms it.
        await recordProviderAnswer(db, subscription, await deps.payments.cancelAtPeriodEnd(subscription.providerSubscriptionId));
      } catch (error) {
        request.log.error({ err: error }, 'subscription could not be cancelled');
        throw new ApiFailure(502, 'Failed to cancel subscription');
      }
    }
    return { success: true, subscription: toApiSubscription(await findSubscription(db, user.id)) };
  });
}

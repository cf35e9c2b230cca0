/** Checkout and auto-renewal calls under /api/subscription; both carry a Firebase ID token (spec §7). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelSubscriptionAnswerSchema,
  cancelSubscriptionRequestSchema,
  createCheckoutAnswerSchema,
  createCheckoutRequestSchema,
} from '../../contract/api.ts';
import { openCheckoutFor } from '../domain/checkouts.ts';
import { turnOffRenewal } from '../domain/subscriptions.ts';
import type { AppDeps } from './context.ts';
import { answers } from './route-schemas.ts';

const tags = ['subscription'];

export async function subscriptionRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;
  // These calls move money: a disabled or signed-out-everywhere user is refused (revocation check).
  const verified = (idToken: string) => deps.verifier.verify(idToken, { checkRevoked: true });

  app.post(
    '/create-checkout',
    {
      schema: { summary: 'Open a checkout for a year of VPN', tags, body: createCheckoutRequestSchema, response: answers(createCheckoutAnswerSchema) },
    },
    async (request) => ({ url: await openCheckoutFor(db, deps.payments, await verified(request.body.idToken)) }),
  );

  app.post(
    '/cancel',
    {
      schema: { summary: 'Turn auto-renewal off', tags, body: cancelSubscriptionRequestSchema, response: answers(cancelSubscriptionAnswerSchema) },
    },
    async (request) => ({
      success: true as const,
      subscription: await turnOffRenewal(db, deps.payments, deps.jobs, await verified(request.body.idToken)),
    }),
  );
}

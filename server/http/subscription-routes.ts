/** Checkout and auto-renewal calls under /api/subscription; both carry a Firebase ID token (spec §7). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelSubscriptionAnswerSchema,
  cancelSubscriptionRequestSchema,
  createCheckoutAnswerSchema,
  createCheckoutRequestSchema,
  refundSubscriptionAnswerSchema,
  refundSubscriptionRequestSchema,
  resumeSubscriptionAnswerSchema,
  resumeSubscriptionRequestSchema,
} from '../../contract/api.ts';
import { MONEY_BACK_DAYS, moneyBackGuarantee, PLAN } from '../../contract/plans.ts';
import type { AppDeps } from './context.ts';
import { answers } from './route-schemas.ts';

const tags = ['subscription'];

export async function subscriptionRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { subscriptions } = deps.domain;
  // These calls move money: a disabled or signed-out-everywhere user is refused (revocation check).
  const verified = (idToken: string) => deps.verifier.verify(idToken, { checkRevoked: true });

  app.post(
    '/create-checkout',
    {
      config: { rateLimitFamily: 'checkout' },
      schema: { summary: `Open a checkout for a ${PLAN.interval} of VPN`, tags, body: createCheckoutRequestSchema, response: answers(createCheckoutAnswerSchema) },
    },
    async (request) => ({ url: await subscriptions.openCheckout(deps.payments, await verified(request.body.idToken), await deps.billingNow()) }),
  );

  // Auto-renewal off and back on are one call in two directions: the same token in, the subscription as it
  // now stands out. Registered from one table so the two cannot drift apart; each keeps its own path,
  // summary and contract schemas (and so its own operationId in the OpenAPI document).
  const renewalRoutes = [
    { path: '/cancel', summary: 'Turn auto-renewal off', body: cancelSubscriptionRequestSchema, answer: cancelSubscriptionAnswerSchema, change: subscriptions.turnOffRenewal },
    { path: '/resume', summary: 'Turn auto-renewal back on', body: resumeSubscriptionRequestSchema, answer: resumeSubscriptionAnswerSchema, change: subscriptions.turnOnRenewal },
  ];
  for (const { path, summary, body, answer, change } of renewalRoutes) {
    app.post(path, { config: { rateLimitFamily: 'cancel' }, schema: { summary, tags, body, response: answers(answer) } }, async (request) => ({
      success: true as const,
      subscription: await change(deps.payments, deps.jobs, await verified(request.body.idToken), await deps.billingNow()),
    }));
  }

  app.post(
    '/refund',
    {
      // A money-back claim is counted with the other calls that change a subscription.
      config: { rateLimitFamily: 'cancel' },
      schema: {
        summary: `End the subscription now and refund the first payment (${moneyBackGuarantee(MONEY_BACK_DAYS)})`,
        tags,
        body: refundSubscriptionRequestSchema,
        response: answers(refundSubscriptionAnswerSchema),
      },
    },
    async (request) => {
      const identity = await verified(request.body.idToken);
      // The local checkout's billing clock is the one clock of its billing rules, as a Stripe test clock is (issue 34).
      return { success: true as const, ...(await subscriptions.claimMoneyBack(deps.jobs, identity, await deps.billingNow())) };
    },
  );
}

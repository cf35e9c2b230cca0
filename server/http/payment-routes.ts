/**
 * The payment webhook (signature checked on the raw body) and the local checkout's hosted page.
 */
import type { FastifyInstance } from 'fastify';
import { brandForServer } from '../brand.ts';
import { ApiFailure } from '../domain/errors.ts';
import type { EventOutcome } from '../domain/payment-events.ts';
import type { ProviderEffects } from '../domain/subscriptions.ts';
import { handlePaymentEvent, paymentEventSchema } from '../payments/events.ts';
import { verifySignature } from '../payments/signature.ts';
import type { AppDeps } from './context.ts';
import { renderLocalCheckoutPage } from './local-checkout-page.ts';
import { parsePathId } from './validation.ts';

/** Verifies and applies one delivery; shared by the HTTP webhook and the local checkout. */
export function createWebhookReceiver(
  deps: Pick<AppDeps, 'database'>,
  secret: string,
  provider: 'stripe' | 'local',
  effects: ProviderEffects = {},
) {
  return async (rawBody: string, signature: string | undefined): Promise<EventOutcome> => {
    if (!verifySignature(rawBody, signature, secret)) throw new ApiFailure(400, 'Invalid webhook signature.');
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw new ApiFailure(400, 'Invalid webhook payload: not JSON.');
    }
    const event = paymentEventSchema.safeParse(json);
    if (!event.success) throw new ApiFailure(400, 'Invalid webhook payload: not a payment event.');
    return handlePaymentEvent(deps.database.db, event.data, provider, effects);
  };
}

export async function paymentRoutes(app: FastifyInstance, deps: AppDeps) {
  const provider = deps.config.stripe ? 'stripe' : 'local';
  const secret = deps.config.stripe?.webhookSecret ?? deps.config.localWebhookSecret;
  const { payments } = deps;
  const receive = createWebhookReceiver(
    deps,
    secret,
    provider,
    {
      ...(payments.cancelAndRefund && { cancelSecondSubscription: (id: string) => payments.cancelAndRefund!(id) }),
      ...(payments.retrieveSubscription && { fetchSubscription: (id: string) => payments.retrieveSubscription!(id) }),
    },
  );

  await app.register(async (webhook) => {
    // The signature covers the exact bytes sent, so this route keeps the body as a string.
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));
    webhook.post('/webhooks/payments', async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['stripe-signature'];
      const outcome = await receive(raw, Array.isArray(signature) ? signature[0] : signature);
      if (outcome === 'deferred') {
        // Not a 2xx, so Stripe delivers it again later (its retries run for days).
        return reply.code(409).send({ success: false, error: 'The event names a customer not known yet; it was not recorded. Deliver it again later.' });
      }
      return reply.code(200).send({ received: true, outcome });
    });
  });

  const local = deps.localCheckout;
  if (!local) return;

  await app.register(async (checkout) => {
    checkout.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );

    checkout.get<{ Params: { id: string } }>('/checkout/local/:id', async (request, reply) => {
      const session = await local.openSession(parsePathId('checkout id', request.params.id));
      if (!session) throw new ApiFailure(404, 'This checkout does not exist.');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderLocalCheckoutPage({ ...session, brand: brandForServer }));
    });

    checkout.post<{ Params: { id: string } }>('/checkout/local/:id/pay', async (request, reply) => {
      const session = await local.openSession(parsePathId('checkout id', request.params.id));
      if (!session) throw new ApiFailure(404, 'This checkout does not exist.');
      // Paying twice (a double submit, a back button) lands on the same success page, charged once. A
      // checkout paid while the account already has a live subscription is not activated: /cancel.
      const paid = session.status === 'open' ? await local.pay(session.id) : session.status === 'completed';
      return reply.redirect(paid ? '/success' : '/cancel', 303);
    });

    checkout.post<{ Params: { id: string } }>('/checkout/local/:id/cancel', async (request, reply) => {
      await local.cancelCheckout(parsePathId('checkout id', request.params.id));
      return reply.redirect('/cancel', 303);
    });
  });
}

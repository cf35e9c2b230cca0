/**
 * The payment webhook (signature checked on the raw body) and the local checkout's hosted page.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../contract/api.ts';
import { brandForServer } from '../brand.ts';
import { ApiFailure, failures } from '../domain/errors.ts';
import { ACKNOWLEDGED_OUTCOMES, type EventOutcome } from '../domain/billing/payment-events.ts';
import type { PaymentProvider } from '../domain/billing/payment-provider.ts';
import type { ProviderEffects } from '../domain/billing/subscriptions.ts';
import { paymentEventSchema } from '../payments/events.ts';
import { verifySignature } from '../payments/signature.ts';
import type { AppDeps } from './context.ts';
import { renderLocalCheckoutPage } from './local-checkout-page.ts';
import { answers, failureAnswers } from './route-schemas.ts';
import { withReason } from './validation.ts';

const checkoutParamsSchema = withReason(
  z.object({ id: text(128).refine((value) => value.length > 0) }),
  'checkout id is not a valid id',
);
const webhookAnswerSchema = z.object({
  received: z.literal(true),
  outcome: z.enum(ACKNOWLEDGED_OUTCOMES),
});
/** The event could not be applied because the provider refused a call it needed: Stripe delivers it again. */
const eventNotAppliedYet = () =>
  new ApiFailure(502, 'provider_failed', 'The payment provider refused a call needed to apply this event; it was not recorded. Deliver it again later.');

/**
 * The HTTP status of a provider's refusal (a 4xx the Stripe SDK threw, carrying `statusCode`), or null for
 * anything else: our own refusals (ApiFailure) and faults keep their answers.
 */
function providerRefusalStatus(error: unknown): number | null {
  if (error instanceof ApiFailure || !(error instanceof Error)) return null;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

const noCheckout = () => new ApiFailure(404, 'not_found', 'This checkout does not exist.');

/** Verifies and applies one delivery; shared by the HTTP webhook and the local checkout. */
export function createWebhookReceiver(
  deps: Pick<AppDeps, 'applyPaymentEvent' | 'metrics' | 'jobs' | 'billingNow'>,
  secret: string,
  provider: 'stripe' | 'local',
  /** Stripe's: the configured price, and the provider to ask about what an event leaves open. */
  stripe?: { priceId: string; payments: Pick<PaymentProvider, 'retrieveSubscription' | 'chargeCustomer' | 'invoicePayment' | 'planProduct'> },
) {
  const payments = stripe?.payments;
  const effects: ProviderEffects = {
    jobs: deps.jobs,
    billingNow: deps.billingNow,
    ...(payments?.retrieveSubscription && { fetchSubscription: (id: string) => payments.retrieveSubscription!(id) }),
    ...(payments?.chargeCustomer && { fetchChargeCustomer: (id: string) => payments.chargeCustomer!(id) }),
    ...(payments?.invoicePayment && { fetchInvoicePayment: (id: string) => payments.invoicePayment!(id) }),
  };
  return async (rawBody: string, signature: string | undefined): Promise<EventOutcome> => {
    if (!verifySignature(rawBody, signature, secret)) throw failures.webhookInvalid('Invalid webhook signature.');
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw failures.webhookInvalid('Invalid webhook payload: not JSON.');
    }
    const event = paymentEventSchema.safeParse(json);
    if (!event.success) throw failures.webhookInvalid('Invalid webhook payload: not a payment event.');
    // Counted once the signature holds, so the type label only takes values the provider sends.
    const { type, created } = event.data;
    deps.metrics.webhookLag.observe({ type }, Math.max(0, Date.now() / 1000 - created));
    try {
      // Another price of the plan's product (a portal plan switch, a price migration) is the plan too.
      const plan = stripe ? { priceId: stripe.priceId, productId: (await payments?.planProduct?.()) ?? null } : null;
      const outcome = await deps.applyPaymentEvent(event.data, provider, effects, plan);
      deps.metrics.webhookEvents.inc({ type, outcome });
      if (outcome === 'refund_failed') deps.metrics.refundsFailed.inc();
      return outcome;
    } catch (error) {
      deps.metrics.webhookEvents.inc({ type, outcome: 'error' });
      throw error;
    }
  };
}

export async function paymentRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const provider = deps.config.stripe ? 'stripe' : 'local';
  const secret = deps.config.stripe?.webhookSecret ?? deps.config.localWebhookSecret;
  const { payments } = deps;
  const stripe = deps.config.stripe;
  const receive = createWebhookReceiver(deps, secret, provider, stripe ? { priceId: stripe.priceId, payments } : undefined);

  await app.register(async (plain) => {
    const webhook = plain.withTypeProvider<ZodTypeProvider>();
    // The signature covers the exact bytes sent, so this route keeps the body as a string.
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));
    const webhookSchema = {
      summary: 'Payment provider events (Stripe-signed raw body)',
      tags: ['payments'],
      response: answers(webhookAnswerSchema),
    };
    webhook.post('/webhooks/payments', { config: { rateLimitFamily: 'other' }, schema: webhookSchema }, async (request) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['stripe-signature'];
      let outcome: EventOutcome;
      try {
        outcome = await receive(raw, Array.isArray(signature) ? signature[0] : signature);
      } catch (error) {
        // A 4xx of the provider's own (a call made while applying the event) is not the webhook's: answered
        // as it is, Stripe would take our 4xx for a refusal of the delivery. A 502 makes it deliver again.
        const status = providerRefusalStatus(error);
        if (status === null) throw error;
        request.log.warn({ eventType: 'payment event', providerStatus: status }, 'the payment provider refused a call made while applying an event: answered 502 so it is delivered again');
        throw eventNotAppliedYet();
      }
      // Not a 2xx, so Stripe delivers it again later (its retries run for days).
      if (outcome === 'deferred') throw failures.eventDeferred();
      // Acknowledged so Stripe stops retrying, but someone should look: paid, yet linked to no account.
      if (outcome === 'refund_failed') request.log.error({ eventType: 'payment event' }, 'a refund failed at the payment provider: support must contact the customer (docs/operations.md)');
      if (outcome === 'unlinkable') request.log.warn({ eventType: 'payment event' }, 'payment event names no account here after an hour of retries: recorded and ignored');
      return { received: true as const, outcome };
    });
  });

  const local = deps.localCheckout;
  if (!local) return;

  await app.register(async (plain) => {
    const checkout = plain.withTypeProvider<ZodTypeProvider>();
    // Paying and leaving answer a 303 to the SPA's /success or /cancel page.
    const redirect = z.null().describe('303 to /success or /cancel');
    const pageSchema = (summary: string) => ({
      summary,
      tags: ['payments'],
      params: checkoutParamsSchema,
      response: { 303: redirect, ...failureAnswers },
    });
    checkout.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );

    const htmlPage = { description: 'The checkout page', content: { 'text/html': { schema: z.string() } } };
    const pageView = { ...pageSchema('The local checkout page'), response: { 200: htmlPage, ...failureAnswers } };
    checkout.get('/checkout/local/:id', { config: { rateLimitFamily: 'other' }, schema: pageView }, async (request, reply) => {
      const session = await local.openSession(request.params.id);
      if (!session) throw noCheckout();
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderLocalCheckoutPage({ ...session, brand: brandForServer }));
    });

    checkout.post('/checkout/local/:id/pay', { config: { rateLimitFamily: 'other' }, schema: pageSchema('Pay a local checkout (redirects)') }, async (request, reply) => {
      const session = await local.openSession(request.params.id);
      if (!session) throw noCheckout();
      // Paying twice (a double submit, a back button) lands on the same success page, charged once. A
      // checkout paid while the account already has a live subscription is not activated: /cancel.
      const paid = session.status === 'open' ? await local.pay(session.id) : session.status === 'completed';
      return reply.redirect(paid ? '/success' : '/cancel', 303);
    });

    checkout.post('/checkout/local/:id/cancel', { config: { rateLimitFamily: 'other' }, schema: pageSchema('Leave a local checkout (redirects)') }, async (request, reply) => {
      await local.cancelCheckout(request.params.id);
      return reply.redirect('/cancel', 303);
    });
  });
}

/**
 * The API with Stripe as its payment provider, Stripe being the local stand-in (stripe-stand-in.ts), as the
 * billing tests use it (stripe-adapter, stripe-edge-cases, billing-jobs, billing-clock's grace period). One
 * place sets it up the same way for all of them: the stand-in and the API started before a describe block's
 * tests and closed after them, every table and every recorded request emptied before each test, and Stripe's
 * events delivered to the webhook signed as Stripe signs them.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { signPayload } from '../../server/payments/signature';
import { createTestApi, nameVerifier, type Driver, type TestApi } from './server-harness';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

const WEBHOOK_SECRET = 'whsec_stripe_test';

interface StripeTestApi {
  /**
   * Delivers a Stripe event of `type` about `object` to the webhook, signed; answers the webhook's status
   * and JSON body. `created` is Stripe's time of the event in seconds (default now), `id` its id (default
   * a new one).
   */
  stripeEvent: (type: string, object: object, event?: { created?: number; id?: string }) => Promise<{ status: number; body: Record<string, unknown> }>;
  /** The requests the stand-in has received with `method` and `path` since the test began. */
  sent: (method: string, path: string) => StripeStandIn['requests'];
}

/**
 * Registers, in the describe block it is called in, the hooks that run the API against a fresh Stripe
 * stand-in on `driver`; `env` adds to (or overrides) the Stripe settings. `started` is handed the two once
 * they run, before the first test.
 */
export function stripeTestApi(
  driver: Driver,
  env: Record<string, string>,
  started: (running: { api: TestApi; stripe: StripeStandIn }) => void,
): StripeTestApi {
  let stripe: StripeStandIn | undefined;
  let api: TestApi | undefined;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    api = await createTestApi({
      driver,
      verifier: nameVerifier,
      env: {
        STRIPE_SECRET_KEY: 'sk_test_standin',
        STRIPE_PRICE_ID: 'price_yearly',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: stripe.url,
        ...env,
      },
    });
    started({ api, stripe });
  });
  afterAll(async () => {
    await api?.close();
    await stripe?.close();
  });
  beforeEach(async () => {
    await api!.reset();
    stripe!.requests.length = 0;
    stripe!.refunds.length = 0;
    stripe!.paymentAmounts.clear();
    stripe!.chargeCustomers.clear();
  });

  let eventNumber = 0;
  return {
    async stripeEvent(type, object, { created = Math.floor(Date.now() / 1000), id = `evt_${(eventNumber += 1)}_${Date.now()}` } = {}) {
      const raw = JSON.stringify({ id, type, created, data: { object } });
      const response = await api!.app.inject({
        method: 'POST',
        url: '/api/webhooks/payments',
        payload: raw,
        headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, WEBHOOK_SECRET) },
      });
      return { status: response.statusCode, body: response.json() as Record<string, unknown> };
    },
    sent: (method, path) => stripe!.requests.filter((request) => request.method === method && request.path === path),
  };
}

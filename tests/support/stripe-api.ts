/**
 * The API with Stripe as its payment provider, Stripe being the local stand-in (stripe-stand-in.ts), as the
 * billing tests use it. One place sets it up the same way for all of them: the stand-in and the API started
 * before a describe block's tests and closed after them, every table and every recorded request emptied
 * before each test, and Stripe's events delivered to the webhook signed as Stripe signs them.
 */
import { beforeEach } from 'vitest';
import { signPayload } from '../../server/payments/signature';
import { describeApi, type BlockApi, type DescribeApiOptions, type TestLayer } from './describe-api';
import { nameVerifier, type Driver, type TestApi } from './server-harness';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

const WEBHOOK_SECRET = 'whsec_stripe_test';

interface StripeCalls {
  /**
   * Delivers a Stripe event of `type` about `object` to the webhook, signed; answers the webhook's status
   * and JSON body. `created` is Stripe's time of the event in seconds (default now), `id` its id (default
   * a new one).
   */
  stripeEvent: (type: string, object: object, event?: { created?: number; id?: string }) => Promise<{ status: number; body: Record<string, unknown> }>;
  /** The requests the stand-in has received with `method` and `path` since the test began. */
  sent: (method: string, path: string) => StripeStandIn['requests'];
}

/** The API's settings for Stripe at `url` (the stand-in). */
function stripeSettings(url: string): Record<string, string> {
  return { STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_PRICE_ID: 'price_yearly', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: url };
}

/** Empties what the stand-in recorded, so that a test reads only its own requests. */
function forgetRequests(stripe: StripeStandIn): void {
  stripe.requests.length = 0;
  stripe.refunds.length = 0;
  stripe.paymentAmounts.clear();
  stripe.chargeCustomers.clear();
}

/** The webhook deliveries and the request log of `api` against `stripe`. */
function stripeCalls(api: TestApi, stripe: StripeStandIn): StripeCalls {
  let eventNumber = 0;
  return {
    async stripeEvent(type, object, { created = Math.floor(Date.now() / 1000), id = `evt_${(eventNumber += 1)}_${Date.now()}` } = {}) {
      const raw = JSON.stringify({ id, type, created, data: { object } });
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/webhooks/payments',
        payload: raw,
        headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, WEBHOOK_SECRET) },
      });
      return { status: response.statusCode, body: response.json() as Record<string, unknown> };
    },
    sent: (method, path) => stripe.requests.filter((request) => request.method === method && request.path === path),
  };
}

/** What Stripe's invoice.paid says about one payment, as the billing tests send it. */
export interface PaidInvoice {
  /** The invoice's id; its payment is `pi_` and the rest of it (the stand-in's rule: in_x is paid by pi_x). */
  id: string;
  customer: string;
  /** The subscription it paid for, and the account in that subscription's metadata. */
  subscription: string;
  userId: string;
  /** Cents (default 10000: the $100 plan). */
  amount?: number;
  /** Stripe's time of the payment, seconds (default a day ago). */
  paidAt?: number;
}

/** A paid invoice of a subscription, as Stripe sends it in invoice.paid (the stand-in answers its payment). */
export function paidInvoice({ id, customer, subscription, userId, amount = 10000, paidAt = Math.floor(Date.now() / 1000) - 86_400 }: PaidInvoice) {
  return {
    id,
    object: 'invoice',
    customer,
    amount_paid: amount,
    currency: 'usd',
    status_transitions: { paid_at: paidAt },
    parent: { subscription_details: { subscription, metadata: { userId } } },
  };
}

/** What a Stripe block's body gets: the API, the stand-in (both filled in before the first test), the driver. */
export interface StripeBlock extends StripeCalls {
  api: BlockApi;
  stripe: StripeStandIn;
  driver: Driver;
}

/**
 * describeApi (describe-api.ts) with Stripe as the payment provider, Stripe being a fresh stand-in per
 * database of its layer: its recorded requests are emptied with the tables before each test. `env` adds to (or
 * overrides) the Stripe settings. The blocks run one after the other, so one `stripe` serves each in turn.
 */
export function describeStripeApi(
  title: string,
  layer: TestLayer,
  env: Record<string, string>,
  body: (block: StripeBlock) => void,
  /** The API's log, for a block that reads it (e.g. `{ logger: true, logDestination }`). */
  options: Pick<DescribeApiOptions, 'logger' | 'logDestination'> = {},
): void {
  const stripe = {} as StripeStandIn;
  describeApi(
    title,
    {
      ...options,
      layer,
      verifier: nameVerifier,
      setUp: async () => {
        Object.assign(stripe, await startStripeStandIn());
        return { env: { ...stripeSettings(stripe.url), ...env } };
      },
      tearDown: () => stripe.close(),
    },
    (api, driver) => {
      beforeEach(() => forgetRequests(stripe));
      body({ api, stripe, driver, ...stripeCalls(api, stripe) });
    },
  );
}

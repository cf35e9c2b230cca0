/**
 * The Stripe adapter through the official SDK against a local stand-in for Stripe's API (the SDK's
 * host/port/protocol options): what is sent for checkout, cancel at period end and immediate cancel.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signPayload } from '../../server/payments/signature';
import { call, createTestApi, type TestApi } from '../support/server-harness';

interface Recorded {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

const recorded: Recorded[] = [];
let stripeStandIn: Server;
let api: TestApi;
const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: token }) };

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    request.on('data', (chunk) => (data += chunk));
    request.on('end', () => resolve(data));
  });
}

beforeAll(async () => {
  stripeStandIn = createServer(async (request, response) => {
    const body = new URLSearchParams(await readBody(request));
    recorded.push({
      method: request.method!,
      path: request.url!,
      body,
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
    });
    response.setHeader('content-type', 'application/json');
    if (request.url === '/v1/checkout/sessions') {
      response.end(JSON.stringify({ id: 'cs_test_1', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_test_1' }));
    } else if (request.url === '/v1/subscriptions/sub_final' || request.url === '/v1/subscriptions/sub_live_but_refused') {
      // Stripe refuses to cancel a cancelled subscription again; reading it tells the state.
      const status = request.url.endsWith('sub_final') ? 'canceled' : 'active';
      if (request.method === 'DELETE') {
        response.statusCode = 400;
        response.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'This subscription cannot be cancelled.' } }));
      } else response.end(JSON.stringify({ id: request.url.split('/')[3], object: 'subscription', status }));
    } else if (request.url === '/v1/subscriptions/sub_gone') {
      response.statusCode = 404;
      response.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } }));
    } else if (request.url?.startsWith('/v1/subscriptions/')) {
      response.end(JSON.stringify({ id: request.url.split('/')[3], object: 'subscription', status: 'active' }));
    } else {
      response.statusCode = 404;
      response.end(JSON.stringify({ error: { message: 'unknown' } }));
    }
  });
  await new Promise<void>((resolve) => stripeStandIn.listen(0, '127.0.0.1', resolve));
  const address = stripeStandIn.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  api = await createTestApi({
    driver: 'pglite',
    verifier,
    env: {
      STRIPE_SECRET_KEY: 'sk_test_standin',
      STRIPE_PRICE_ID: 'price_yearly',
      STRIPE_WEBHOOK_SECRET: 'whsec_stripe_test',
      STRIPE_API_BASE: `http://127.0.0.1:${port}`,
      PUBLIC_URL: 'https://veil.example',
    },
  });
});

afterAll(async () => {
  await api?.close();
  await new Promise((resolve) => stripeStandIn?.close(resolve));
});

async function stripeEvent(type: string, object: Record<string, unknown>) {
  const raw = JSON.stringify({ id: `evt_${type}_${Date.now()}_${Math.random()}`, type, created: Math.floor(Date.now() / 1000), data: { object } });
  return api.app.inject({
    method: 'POST',
    url: '/api/webhooks/payments',
    payload: raw,
    headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, 'whsec_stripe_test') },
  });
}

describe('Stripe adapter', () => {
  test('checkout, customer reuse, cancel at period end and cancel on deletion', async () => {
    const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'stripe-customer' });
    const { id: userId, email } = signIn.body.user as { id: string; email: string };
    const sessionToken = signIn.body.sessionToken as string;

    const checkout = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'stripe-customer', email });
    expect(checkout.body).toEqual({ url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    const first = recorded.at(-1)!;
    expect(first.path).toBe('/v1/checkout/sessions');
    expect(first.body.get('mode')).toBe('subscription');
    expect(first.body.get('client_reference_id')).toBe(userId);
    expect(first.body.get('customer_email')).toBe(email);
    expect(first.body.get('line_items[0][price]')).toBe('price_yearly');
    expect(first.body.get('subscription_data[metadata][userId]')).toBe(userId);
    expect(first.body.get('success_url')).toBe('https://veil.example/success');
    expect(first.body.get('cancel_url')).toBe('https://veil.example/cancel');
    expect(first.idempotencyKey).toMatch(/^checkout:/);

    // Stripe reports the purchase through webhooks; the customer is then reused.
    await stripeEvent('checkout.session.completed', { client_reference_id: userId, customer: 'cus_123', subscription: 'sub_123' });
    await stripeEvent('customer.subscription.created', {
      id: 'sub_123',
      customer: 'cus_123',
      status: 'active',
      cancel_at_period_end: false,
      items: { data: [{ current_period_end: Math.floor(Date.now() / 1000) + 365 * 86_400 }] },
      metadata: { userId },
    });
    const verified = await call(api.app, 'POST', '/api/auth/verify', { sessionToken });
    expect(verified.body.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'stripe-customer' });
    const cancel = recorded.at(-1)!;
    expect(cancel).toMatchObject({ method: 'POST', path: '/v1/subscriptions/sub_123' });
    expect(cancel.body.get('cancel_at_period_end')).toBe('true');
    expect(cancel.idempotencyKey).toBe('cancel-at-period-end:sub_123');

    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken });
    expect(deleted.status).toBe(200);
    const cancelNow = recorded.at(-1)!;
    expect(cancelNow).toMatchObject({ method: 'DELETE', path: '/v1/subscriptions/sub_123' });
    expect(cancelNow.idempotencyKey).toBe('cancel-now:sub_123');
  });

  test.each([
    ['already cancelled at Stripe', 'sub_final'],
    ['no longer known to Stripe', 'sub_gone'],
  ])('deletion works when the subscription is %s (our record still says active)', async (_case, subscriptionId) => {
    const idToken = `final-${subscriptionId}`;
    const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken });
    const { id: userId, email } = signIn.body.user as { id: string; email: string };
    const sessionToken = signIn.body.sessionToken as string;
    await stripeEvent('customer.subscription.created', {
      id: subscriptionId,
      customer: `cus_${subscriptionId}`,
      status: 'active',
      cancel_at_period_end: false,
      items: { data: [{ current_period_end: Math.floor(Date.now() / 1000) + 365 * 86_400 }] },
      metadata: { userId },
    });
    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).status).toBe(401);
  });

  test('a live subscription Stripe refuses to cancel still stops the deletion (nothing deleted)', async () => {
    const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'refused-cancel' });
    const { id: userId, email } = signIn.body.user as { id: string; email: string };
    const sessionToken = signIn.body.sessionToken as string;
    await stripeEvent('customer.subscription.created', {
      id: 'sub_live_but_refused',
      customer: 'cus_refused',
      status: 'active',
      cancel_at_period_end: false,
      items: { data: [{ current_period_end: Math.floor(Date.now() / 1000) + 365 * 86_400 }] },
      metadata: { userId },
    });
    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken });
    expect(deleted.status).toBe(502);
    expect(deleted.body).toMatchObject({ success: false });
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).status).toBe(200);
  });

  test('a second checkout of a returning customer reuses the Stripe customer', async () => {
    const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'returning-customer' });
    const { id: userId } = signIn.body.user as { id: string };
    await stripeEvent('checkout.session.completed', { client_reference_id: userId, customer: 'cus_returning' });
    await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'returning-customer', email: 'x@example.com' });
    const request = recorded.at(-1)!;
    expect(request.body.get('customer')).toBe('cus_returning');
    expect(request.body.get('customer_email')).toBeNull();
  });

  test('Stripe down: checkout answers 502 JSON, never a stack trace', async () => {
    const down = await createTestApi({
      driver: 'pglite',
      verifier,
      env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PRICE_ID: 'price_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_API_BASE: 'http://127.0.0.1:9' },
    });
    try {
      await call(down.app, 'POST', '/api/auth/google/signin', { idToken: 'unlucky' });
      expect(await call(down.app, 'POST', '/api/subscription/create-checkout', { idToken: 'unlucky', email: 'u@example.com' })).toEqual({
        status: 502,
        body: { success: false, error: 'Failed to create checkout session' },
        headers: expect.anything(),
      });
    } finally {
      await down.close();
    }
  });
});

/**
 * The payment webhook: signature on the raw body, each event once (also across a restart), stale events
 * ignored, provider statuses mapped. Stripe's own test signature is accepted, so real deliveries pass.
 */
import { rmSync } from 'node:fs';
import { expect, test } from 'vitest';
import Stripe from 'stripe';
import { paymentEvents } from '../../server/db/schema';
import { signPayload } from '../../server/payments/signature';
import { describeApi } from '../support/describe-api';
import { call, createTestApi, migratedDataDir, type TestApi } from '../support/server-harness';

const SECRET = 'whsec_local_development_only';
/** Accepts any token as its own subject: these tests are about payments, not identity. */
const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: token }) };

let eventNumber = 0;
function subscriptionEvent(userId: string, status: string, created: number, extra: Record<string, unknown> = {}) {
  eventNumber += 1;
  return {
    id: `evt_${eventNumber}_${Date.now()}`,
    type: 'customer.subscription.updated',
    created,
    data: {
      object: {
        id: `sub_${userId}`,
        status,
        cancel_at_period_end: false,
        current_period_end: created + 365 * 86_400,
        metadata: { userId },
        ...extra,
      },
    },
  };
}

async function deliver(api: TestApi, event: unknown, signature?: string) {
  const raw = JSON.stringify(event);
  const response = await api.app.inject({
    method: 'POST',
    url: '/api/webhooks/payments',
    payload: raw,
    headers: { 'content-type': 'application/json', ...(signature === undefined ? { 'stripe-signature': signPayload(raw, SECRET) } : signature ? { 'stripe-signature': signature } : {}) },
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

async function newUser(api: TestApi, name: string) {
  const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: `${name}-${Date.now()}` });
  return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
}

const subscriptionOf = async (api: TestApi, sessionToken: string) =>
  (await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription as { status: string; cancelAtPeriodEnd: boolean } | null;

describeApi('payment webhooks', { layer: 'sql', verifier }, (api) => {

  test('a signed event is applied; the same event again answers 2xx and changes nothing', async () => {
    const { userId, sessionToken } = await newUser(api, 'dup');
    const now = Math.floor(Date.now() / 1000);
    const event = subscriptionEvent(userId, 'active', now);
    expect(await deliver(api, event)).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'active' });
    // Meanwhile the subscription lapsed; a replay of the old "active" event must not resurrect it.
    expect((await deliver(api, subscriptionEvent(userId, 'past_due', now + 10))).status).toBe(200);
    expect(await deliver(api, event)).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'past_due' });
    expect(await api.database.db.select().from(paymentEvents)).toHaveLength(2);
  });

  test('an event older than the state applied is ignored (out of order)', async () => {
    const { userId, sessionToken } = await newUser(api, 'order');
    const now = Math.floor(Date.now() / 1000);
    await deliver(api, subscriptionEvent(userId, 'active', now, { cancel_at_period_end: true }));
    expect(await deliver(api, subscriptionEvent(userId, 'active', now - 60))).toMatchObject({ body: { outcome: 'ignored' } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  });

  test.each([
    ['past_due', 'past_due'],
    ['unpaid', 'past_due'],
    ['trialing', 'active'],
    ['incomplete', 'inactive'],
    ['canceled', 'cancelled'],
  ])('provider status %s is shown as %s', async (providerStatus, status) => {
    const { userId, sessionToken } = await newUser(api, providerStatus);
    await deliver(api, subscriptionEvent(userId, providerStatus, Math.floor(Date.now() / 1000)));
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status });
  });

  test('customer.subscription.deleted cancels', async () => {
    const { userId, sessionToken } = await newUser(api, 'deleted');
    const now = Math.floor(Date.now() / 1000);
    await deliver(api, subscriptionEvent(userId, 'active', now));
    await deliver(api, { ...subscriptionEvent(userId, 'active', now + 1), type: 'customer.subscription.deleted' });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'cancelled' });
  });

  test('customer.subscription.deleted is final: a later "updated: active" for it is ignored', async () => {
    const { userId, sessionToken } = await newUser(api, 'final');
    const now = Math.floor(Date.now() / 1000);
    await deliver(api, subscriptionEvent(userId, 'active', now));
    await deliver(api, { ...subscriptionEvent(userId, 'active', now + 1), type: 'customer.subscription.deleted' });
    expect(await deliver(api, subscriptionEvent(userId, 'active', now + 2))).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'cancelled' });
  });

  test.each([
    ['deleted first', true],
    ['deleted second', false],
  ])('same second: the cancellation wins whatever the arrival order (%s)', async (_label, deletedFirst) => {
    const { userId, sessionToken } = await newUser(api, 'tie-cancel');
    const now = Math.floor(Date.now() / 1000);
    await deliver(api, subscriptionEvent(userId, 'active', now - 10));
    const deleted = { ...subscriptionEvent(userId, 'active', now), type: 'customer.subscription.deleted' };
    const updated = subscriptionEvent(userId, 'active', now);
    for (const event of deletedFirst ? [deleted, updated] : [updated, deleted]) expect((await deliver(api, event)).status).toBe(200);
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'cancelled' });
  });

  test.each([
    ['renewal off first', true],
    ['renewal off second', false],
  ])('same second, nobody to ask: settled by finality, never arrival order (%s)', async (_label, offFirst) => {
    const { userId, sessionToken } = await newUser(api, 'tie-finality');
    const now = Math.floor(Date.now() / 1000);
    const off = subscriptionEvent(userId, 'active', now, { cancel_at_period_end: true });
    const on = subscriptionEvent(userId, 'active', now);
    for (const event of offFirst ? [off, on] : [on, off]) await deliver(api, event);
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  });

  test('an event for a customer not known yet is not recorded (409); delivered again once known, it applies', async () => {
    const { userId, sessionToken } = await newUser(api, 'early');
    const now = Math.floor(Date.now() / 1000);
    const early = subscriptionEvent(userId, 'active', now, { customer: 'cus_early', metadata: {} });
    expect(await deliver(api, early)).toEqual({
      status: 409,
      body: { success: false, error: 'The event names a customer not known yet; it was not recorded. Deliver it again later.', code: 'event_deferred' },
    });
    expect(await api.database.db.select().from(paymentEvents)).toHaveLength(0);
    expect(await subscriptionOf(api, sessionToken)).toBeNull();

    await deliver(api, { id: `evt_link_${Date.now()}`, type: 'checkout.session.completed', created: now, data: { object: { id: 'cs_early', client_reference_id: userId, customer: 'cus_early' } } });
    expect(await deliver(api, early)).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    expect(await subscriptionOf(api, sessionToken)).toMatchObject({ status: 'active' });
  });

  test('the end of a subscription nobody here holds is recorded and ignored', async () => {
    const now = Math.floor(Date.now() / 1000);
    const orphan = { ...subscriptionEvent('gone', 'canceled', now, { customer: 'cus_gone', metadata: {} }), type: 'customer.subscription.deleted' };
    expect(await deliver(api, orphan)).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    expect(await api.database.db.select().from(paymentEvents)).toHaveLength(1);
  });

  test('cancel_at is honoured like cancel_at_period_end: renewal off, ending at cancel_at', async () => {
    const { userId, sessionToken } = await newUser(api, 'cancel-at');
    const now = Math.floor(Date.now() / 1000);
    const cancelAt = now + 30 * 86_400;
    await deliver(api, subscriptionEvent(userId, 'active', now, { cancel_at: cancelAt }));
    expect(await subscriptionOf(api, sessionToken)).toEqual({
      status: 'active',
      cancelAtPeriodEnd: true,
      endDate: new Date(cancelAt * 1000).toISOString(),
    });
  });

  test('forged, missing and stale signatures are refused with 400 JSON and change nothing', async () => {
    const { userId, sessionToken } = await newUser(api, 'forged');
    const event = subscriptionEvent(userId, 'active', Math.floor(Date.now() / 1000));
    const raw = JSON.stringify(event);
    const stale = signPayload(raw, SECRET, Math.floor(Date.now() / 1000) - 3600);
    for (const signature of [signPayload(raw, 'whsec_someone_else'), '', 't=1,v1=deadbeef', stale]) {
      expect(await deliver(api, event, signature)).toEqual({ status: 400, body: { success: false, error: 'Invalid webhook signature.', code: 'webhook_invalid' } });
    }
    expect(await subscriptionOf(api, sessionToken)).toBeNull();
    expect(await api.database.db.select().from(paymentEvents)).toHaveLength(0);
  });

  test("a signature made by Stripe's SDK is accepted", async () => {
    const { userId } = await newUser(api, 'stripe-signed');
    const raw = JSON.stringify(subscriptionEvent(userId, 'active', Math.floor(Date.now() / 1000)));
    const header = new Stripe('sk_test_unused').webhooks.generateTestHeaderString({ payload: raw, secret: SECRET });
    expect((await deliver(api, JSON.parse(raw), header)).status).toBe(200);
  });

  test('a signed delivery that is not an event is a 400, not a 500', async () => {
    expect(await deliver(api, { hello: 'world' })).toEqual({ status: 400, body: { success: false, error: 'Invalid webhook payload: not a payment event.', code: 'webhook_invalid' } });
  });
});

test('an event replayed after a restart (same PGlite data folder) is recognised as a duplicate', async () => {
  const dataDir = migratedDataDir('veil-webhook-restart-');
  try {
    const first = await createTestApi({ driver: 'pglite', dataDir, verifier });
    const { userId } = await newUser(first, 'restart');
    const event = subscriptionEvent(userId, 'active', Math.floor(Date.now() / 1000));
    expect((await deliver(first, event)).body.outcome).toBe('applied');
    await first.close();

    const second = await createTestApi({ driver: 'pglite', dataDir, verifier });
    try {
      expect((await deliver(second, event)).body.outcome).toBe('duplicate');
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

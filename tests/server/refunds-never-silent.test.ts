/**
 * A refund that fails is never silent, and Stripe is asked and answered as it expects (issue 46, items 4, 5
 * and 7), against the Stripe stand-in with signed Stripe-format events: a refused refund owed before its
 * amount was known still gets its e-mail, history line and log line; a refund job out of retries fails the
 * refund with its own alert; customer creation has a key per attempt; a Stripe 4xx while applying an event
 * is answered 502 with a warning. What answers and logs say, not SQL: PGlite alone (the http layer). The
 * SQL-layer items are in money-follows.test.ts.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { refunds } from '../../server/db/schema';
import { mailsOwed } from '../support/mail-owed';
import { call } from '../support/server-harness';
import { describeStripeApi, paidInvoice } from '../support/stripe-api';
import { until } from '../support/until';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

/** The API's log lines (JSON), as it writes them. */
const logLines: string[] = [];
const logDestination = { write: (line: string) => void logLines.push(line) };
const logged = () => logLines.map((line) => JSON.parse(line) as { level: number; msg: string } & Record<string, unknown>);

const env = { STRIPE_TIMEOUT_MS: '1000', BILLING_JOB_RETRY_DELAY: '1', BILLING_JOB_RETRY_LIMIT: '1', RATE_LIMIT_SCALE: '10', LOG_LEVEL: 'info' };

describeStripeApi('refunds never silent (issue 46)', 'http', env, ({ api, stripe, stripeEvent, sent }) => {
  const refundRow = async (subscriptionId: string) => (await api.database.db.select().from(refunds).where(eq(refunds.providerSubscriptionId, subscriptionId)))[0];
  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const user = body.user as { id: string; email: string };
    return { userId: user.id, email: user.email, sessionToken: body.sessionToken as string };
  }
  const refundLines = async (sessionToken: string) =>
    ((await call(api.app, 'POST', '/api/billing/history', { sessionToken })).body.items as Array<Record<string, unknown>>)
      .filter((item) => item.kind === 'refund')
      .map(({ amount, description, refundState }) => ({ amount, description, refundState }));
  /** An account with a paid subscription `sub_<name>` (invoice in_sub_<name>, payment pi_sub_<name>). */
  async function paying(name: string) {
    const user = await signIn(name);
    const customer = `cus_${name}`;
    await stripeEvent('checkout.session.completed', { id: `cs_${name}`, client_reference_id: user.userId, customer });
    const subscription = structuredClone(stripe.addSubscription(`sub_${name}`, customer, user.userId));
    await stripeEvent('customer.subscription.created', subscription, { created: nowSeconds() - DAY });
    await stripeEvent('invoice.paid', paidInvoice({ id: `in_sub_${name}`, customer, subscription: `sub_${name}`, userId: user.userId, paidAt: nowSeconds() - DAY }));
    return { ...user, customer, subscription };
  }
  const metric = async (name: string) => {
    const text = (await api.app.inject({ method: 'GET', url: '/api/metrics' })).body;
    return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  };
  const claim = (name: string) => call(api.app, 'POST', '/api/subscription/refund', { idToken: name });

  test('item 4: a refused refund whose amount was not known yet (a second subscription) still gets its e-mail, history line and log line', async () => {
    const { userId, customer, sessionToken } = await paying('refused-dup');
    const second = structuredClone(stripe.addSubscription('sub_refused-dup-2', customer, userId));
    stripe.refuseNext('/v1/refunds', { status: 402, error: { type: 'invalid_request_error', code: 'insufficient_funds', message: 'refused' } });
    expect(await stripeEvent('customer.subscription.created', second)).toMatchObject({ body: { outcome: 'second_subscription_cancelled' } });
    expect(await refundRow('sub_refused-dup-2')).toMatchObject({ amount: null });

    await until(async () => (await refundRow('sub_refused-dup-2'))?.state === 'failed');
    expect(await refundRow('sub_refused-dup-2')).toMatchObject({ stateReason: 'insufficient_funds', amount: 10000, currency: 'usd' });
    expect(await mailsOwed(api.database, 'refund_failed', userId)).toEqual([expect.objectContaining({ amount: 10000, currency: 'usd' })]);
    expect(await refundLines(sessionToken)).toEqual([{ amount: 10000, description: 'Refund failed: our support team will contact you', refundState: 'failed' }]);
    expect(logged().some((line) => line.level >= 50 && /refund failed/.test(line.msg))).toBe(true);
  });

  test('item 4: a refund job that runs out of retries ends failed: the customer is told and its own alert goes', async () => {
    const { userId, sessionToken } = await paying('outage');
    const before = await metric('veil_refunds_gave_up_total');
    stripe.stopAnswering('/v1/refunds');
    try {
      expect(await claim('outage')).toMatchObject({ status: 200 });
      await until(async () => (await refundRow('sub_outage'))?.state === 'failed', 15_000);
    } finally {
      stripe.answerAgain('/v1/refunds');
    }
    expect(await refundRow('sub_outage')).toMatchObject({ state: 'failed', stateReason: 'retries_exhausted' });
    expect(await mailsOwed(api.database, 'refund_failed', userId)).toEqual([expect.objectContaining({ amount: 10000 })]);
    expect(await refundLines(sessionToken)).toEqual([{ amount: 10000, description: 'Refund failed: our support team will contact you', refundState: 'failed' }]);
    expect(await metric('veil_refunds_gave_up_total')).toBe(before + 1);
    expect(stripe.refunds).toEqual([]);
  }, 30_000);

  test('item 4: a refund made in the Dashboard after ours failed (as the runbook says) shows in the history beside the failure', async () => {
    const { customer, sessionToken } = await paying('dashboard-after');
    stripe.refuseNext('/v1/refunds', { status: 402, error: { type: 'invalid_request_error', code: 'insufficient_funds', message: 'refused' } });
    expect(await claim('dashboard-after')).toMatchObject({ status: 200 });
    await until(async () => (await refundRow('sub_dashboard-after'))?.state === 'failed');
    // Support tops up the balance and refunds the payment in the Dashboard a few minutes later.
    await api.database.db.update(refunds).set({ failedAt: new Date(Date.now() - 5 * 60_000) }).where(eq(refunds.providerSubscriptionId, 'sub_dashboard-after'));
    const charge = { id: 'ch_dashboard_after', object: 'charge', customer, payment_intent: 'pi_sub_dashboard-after', amount: 10000, amount_refunded: 10000, currency: 'usd' };
    expect(await stripeEvent('charge.refunded', charge)).toMatchObject({ body: { outcome: 'applied' } });
    expect(await refundLines(sessionToken)).toEqual([
      { amount: 10000, description: 'Refund', refundState: 'made' },
      { amount: 10000, description: 'Refund failed: our support team will contact you', refundState: 'failed' },
    ]);
  });

  test('item 5: customer creation has a key per attempt: a 500 Stripe saved does not block the next checkout', async () => {
    await signIn('customer-500');
    stripe.failNextAfterDoing('/v1/customers');
    const checkout = () => call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'customer-500', email: 'customer-500@example.com' });
    expect((await checkout()).status).toBe(502);
    expect((await checkout()).status).toBe(200);
    const keys = sent('POST', '/v1/customers').map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });

  test('item 7: a Stripe 4xx while applying an event is answered 5xx (Stripe retries), with a warning in the log', async () => {
    await paying('unknown-charge');
    logLines.length = 0;
    // A dispute naming only a charge Stripe does not find (404): the customer cannot be read now.
    const dispute = { id: 'dp_unknown', object: 'dispute', charge: 'ch_nobody_knows', status: 'needs_response', amount: 10000, currency: 'usd' };
    const answer = await stripeEvent('charge.dispute.created', dispute);
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(answer.body).toMatchObject({ success: false, code: 'provider_failed' });
    expect(logged().some((line) => line.level === 40 && /payment provider refused/.test(line.msg))).toBe(true);
    // Not recorded: Stripe's retry is applied once the charge can be read.
    expect(await stripeEvent('charge.dispute.created', dispute, { id: 'evt_retry_unknown' })).toMatchObject({ status: 502 });
  });
}, { logger: true, logDestination });

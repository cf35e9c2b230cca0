/**
 * Refunds have a life (issue 34, Money and Build item 2), against the Stripe stand-in with signed
 * Stripe-format events: a late event after deletion refunds nothing, one Stripe 500 does not become
 * permanent and never makes a second refund, and a refund is owed, made or failed (with its reason), each
 * shown truthfully, mailed only when the money left, and alerted when it fails for good.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { charges, refunds } from '../../server/db/schema';
import { forgottenProviderId, REFUND_QUEUE, type OldShapeRefundJob } from '../../server/domain/billing/refunds';
import { startTestMailServer } from '../support/maildev';
import { mailsOwed } from '../support/mail-owed';
import { call } from '../support/server-harness';
import { describeStripeApi, paidInvoice } from '../support/stripe-api';
import { until } from '../support/until';

const nowSeconds = () => Math.floor(Date.now() / 1000);
// A real mail server: the notice of a refund of a deleted account is read where it arrives.
const mail = await startTestMailServer();
afterAll(() => mail.stop());

describeStripeApi('refunds with Stripe', 'sql', { STRIPE_TIMEOUT_MS: '1000', BILLING_JOB_RETRY_DELAY: '1', RATE_LIMIT_SCALE: '10', SMTP_URL: mail.smtpUrl }, ({ api, stripe, stripeEvent, sent }) => {

  /** The refund of `subscriptionId`, also once its account is deleted and its ids are kept hashed. */
  const refundRow = async (subscriptionId: string) =>
    (await api.database.db.select().from(refunds).where(inArray(refunds.providerSubscriptionId, [subscriptionId, forgottenProviderId(subscriptionId)])))[0];
  /** How many rows of `table` (of the app's schema or, with `jobs`, pg-boss's) hold `text` anywhere. */
  const rowsHolding = async (table: string, text: string) =>
    ((await api.database.statement(`holding_${table}`, `SELECT count(*)::int FROM ${table} AS r WHERE position($1 in r::text) > 0`)([text])) as [[number]])[0][0];
  const jobTable = () => `"${api.database.jobSchema}".job`;
  /** The payment provider's ids a refund row holds (subscription, payment, charge, refund), as they are now. */
  const providerIdsOf = (row: typeof refunds.$inferSelect) =>
    [row.providerSubscriptionId, row.paymentIntent, row.chargeId, row.providerRefundId].filter((id): id is string => id !== null);
  /** Those of `clear` some job of the queue (its data or output) holds. */
  const inJobQueue = async (clear: string[]) => {
    const held: string[] = [];
    for (const id of clear) if ((await rowsHolding(jobTable(), id)) > 0) held.push(id);
    return held;
  };
  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const user = body.user as { id: string; email: string };
    return { userId: user.id, email: user.email, sessionToken: body.sessionToken as string };
  }
  const history = async (sessionToken: string) =>
    ((await call(api.app, 'POST', '/api/billing/history', { sessionToken })).body.items as Array<Record<string, unknown>>).map(
      ({ kind, amount, description, refundState }) => ({ kind, amount, description, refundState }),
    );
  /** An account with a paid subscription `sub_<name>` (invoice in_sub_<name>, payment pi_sub_<name>). */
  async function paying(name: string) {
    const user = await signIn(name);
    const customer = `cus_${name}`;
    await stripeEvent('checkout.session.completed', { id: `cs_${name}`, client_reference_id: user.userId, customer });
    const subscription = structuredClone(stripe.addSubscription(`sub_${name}`, customer, user.userId));
    await stripeEvent('customer.subscription.created', subscription, { created: nowSeconds() - 86_400 });
    await stripeEvent('invoice.paid', paidInvoice({ id: `in_sub_${name}`, customer, subscription: `sub_${name}`, userId: user.userId }));
    return { ...user, customer, subscription };
  }
  /**
   * A refund made in the Stripe Dashboard: Stripe holds refund `refundId` of `amount` (cents, dollars) on
   * `paymentIntent`, and reported it a minute ago on charge `chargeId` of `charged` (charge.refunded).
   */
  async function dashboardRefund(customer: string, refund: { refundId: string; chargeId: string; paymentIntent: string; amount: number; charged: number }) {
    const { refundId, chargeId, paymentIntent, amount, charged } = refund;
    stripe.refunds.push({ id: refundId, object: 'refund', payment_intent: paymentIntent, amount, currency: 'usd', status: 'succeeded', metadata: {} });
    const charge = { id: chargeId, object: 'charge', customer, payment_intent: paymentIntent, amount: charged, amount_refunded: amount, currency: 'usd' };
    await stripeEvent('charge.refunded', charge, { created: nowSeconds() - 60 });
  }
  const metric = async (name: string) => {
    const text = (await api.app.inject({ method: 'GET', url: '/api/metrics' })).body;
    return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  };

  test('a late customer.subscription.updated, sent before the account was deleted, refunds nothing of the paid year', async () => {
    const { userId, email, sessionToken, subscription } = await paying('late-event');
    // Sent by Stripe before the deletion (renewal turned off in the portal), delivered after it.
    const lateUpdate = { ...subscription, cancel_at_period_end: true };
    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
    expect(stripe.subscriptions.get('sub_late-event')!.status).toBe('canceled');

    expect(await stripeEvent('customer.subscription.updated', lateUpdate, { created: nowSeconds() - 60 })).toMatchObject({ status: 200 });
    await until(async () => (await refundRow('sub_late-event'))?.state === 'not_owed');
    expect(await refundRow('sub_late-event')).toMatchObject({ state: 'not_owed', stateReason: 'cancelled_elsewhere', refundedAt: null });
    expect(sent('POST', '/v1/refunds')).toHaveLength(0);
    expect(stripe.refunds).toHaveLength(0);
    // Settled without an account, the row keeps no provider id in clear (issue 31): only their hashes.
    expect(await refundRow('sub_late-event')).toMatchObject({ providerSubscriptionId: forgottenProviderId('sub_late-event'), userId: null });
    expect(await rowsHolding('refunds', 'sub_late-event')).toBe(0);

    // Delivered again later (Stripe retries), the event is still recognised by the hash: nothing owed twice.
    const cancelsBefore = stripe.requests.length;
    expect(await stripeEvent('customer.subscription.updated', lateUpdate, { created: nowSeconds() - 30 })).toMatchObject({ status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await api.database.db.select().from(refunds)).toHaveLength(1);
    expect(await rowsHolding('refunds', 'sub_late-event')).toBe(0);
    expect(stripe.requests.slice(cancelsBefore)).toEqual([]);
  });

  test('a refund made just before deletion keeps no provider id in clear, and its later failure is still recognised and announced to the address kept, which is then gone', async () => {
    const { userId, email, sessionToken, customer } = await paying('made-then-gone');
    const subscriptionId = 'sub_made-then-gone';
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'made-then-gone' })).toMatchObject({ status: 200 });
    await until(async () => (await refundRow(subscriptionId))?.state === 'made');
    const [made] = stripe.refunds;
    const clearIds = providerIdsOf((await refundRow(subscriptionId))!);
    expect(clearIds).toEqual(expect.arrayContaining([subscriptionId, 'pi_sub_made-then-gone', made!.id]));
    await mail.waitForMails(email, 1, undefined, (received) => received.subject.startsWith('Your Veil VPN refund'));
    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
    // Its finished job left with the hashing (issue 31): the job queue names none of its provider ids.
    expect(await inJobQueue(clearIds)).toEqual([]);

    // An accounting record: amount, state and dates, no account, and the provider's ids only hashed.
    expect(await refundRow(subscriptionId)).toMatchObject({
      userId: null,
      state: 'made',
      amount: 10000,
      providerSubscriptionId: forgottenProviderId(subscriptionId),
      paymentIntent: forgottenProviderId('pi_sub_made-then-gone'),
      providerRefundId: forgottenProviderId(made!.id),
    });
    for (const clear of [subscriptionId, 'pi_sub_made-then-gone', made!.id, customer, userId, email]) expect(await rowsHolding('refunds', clear), clear).toBe(0);
    // No job names the address, ever (the kept address is a row of its own).
    expect(await rowsHolding(jobTable(), email)).toBe(0);

    // Stripe reports the refund failed, after the deletion: recognised by its hash, failed, alerted, announced.
    const failed = { ...made, status: 'failed', failure_reason: 'expired_or_canceled_card' };
    expect(await stripeEvent('refund.failed', failed)).toEqual({ status: 200, body: { received: true, outcome: 'refund_failed' } });
    expect(await refundRow(subscriptionId)).toMatchObject({ state: 'failed', stateReason: 'expired_or_canceled_card' });
    const [notice] = await mail.waitForMails(email, 1, undefined, (received) => received.subject === 'Your Veil VPN refund could not be made');
    expect(notice!.to).toEqual([{ address: email, name: 'made-then-gone' }]);
    expect(notice!.text).toContain('$100.00');
    // Sent, its address is gone: from the kept addresses, the refund row and the job queue.
    await until(async () => (await rowsHolding('notice_addresses', email)) === 0);
    expect(await rowsHolding('refunds', email)).toBe(0);
    expect(await rowsHolding(jobTable(), email)).toBe(0);
  });

  test('a refund still owed at deletion and made after it: its job names only the refund, and leaves once the refund is an accounting record', async () => {
    const { userId, email, sessionToken } = await paying('owed-then-gone');
    const subscriptionId = 'sub_owed-then-gone';
    // Stripe does not answer about refunds (the job lists the payment's refunds first) until the account is gone.
    stripe.stopAnswering('/v1/refunds');
    let owed: typeof refunds.$inferSelect;
    try {
      expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'owed-then-gone' })).toMatchObject({ status: 200 });
      await until(() => stripe.requests.some((request) => request.path === '/v1/refunds'));
      owed = (await refundRow(subscriptionId))!;
      expect(owed).toMatchObject({ state: 'owed', id: expect.stringMatching(/^rfd_/) });
      // The job names the refund by its own id, never by a provider id.
      const [[data]] = (await api.database.statement('refund_job_data', `SELECT data FROM ${jobTable()} WHERE name = $1 AND state IN ('created', 'retry', 'active')`)([REFUND_QUEUE])) as [[unknown]];
      expect(data).toEqual({ refundId: owed.id });
      expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
    } finally {
      stripe.answerAgain('/v1/refunds');
    }
    await until(async () => (await refundRow(subscriptionId))?.state === 'made');
    const [made] = stripe.refunds;
    expect(stripe.refunds).toHaveLength(1);
    await mail.waitForMails(email, 1, undefined, (received) => received.subject.startsWith('Your Veil VPN refund'));
    // Made without its account: the row keeps hashes only, and the job that made it is gone, data and output.
    expect(await refundRow(subscriptionId)).toMatchObject({ userId: null, providerSubscriptionId: forgottenProviderId(subscriptionId) });
    await until(async () => (await rowsHolding(jobTable(), owed.id)) === 0);
    expect(await inJobQueue([subscriptionId, 'pi_sub_owed-then-gone', 'in_sub_owed-then-gone', made!.id])).toEqual([]);
  });

  test("issue 46, item 4: a second subscription's refund owed before its amount was known, refused after the account was deleted, is still announced with Stripe's amount", async () => {
    const { userId, email, sessionToken, customer } = await paying('dup-gone');
    const subscriptionId = 'sub_dup-gone-2';
    stripe.stopAnswering('/v1/refunds');
    try {
      const second = structuredClone(stripe.addSubscription(subscriptionId, customer, userId));
      expect(await stripeEvent('customer.subscription.created', second)).toMatchObject({ body: { outcome: 'second_subscription_cancelled' } });
      // Its invoice.paid has not arrived: the refund is owed without an amount.
      expect(await refundRow(subscriptionId)).toMatchObject({ state: 'owed', amount: null });
      await until(() => stripe.requests.some((request) => request.path === '/v1/refunds'));
      expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
      stripe.refuseNext('/v1/refunds', { status: 402, error: { type: 'invalid_request_error', code: 'insufficient_funds', message: 'refused' } });
    } finally {
      stripe.answerAgain('/v1/refunds');
    }
    await until(async () => (await refundRow(subscriptionId))?.state === 'failed');
    expect(await refundRow(subscriptionId)).toMatchObject({ userId: null, stateReason: 'insufficient_funds', amount: 10000, currency: 'usd' });
    const [notice] = await mail.waitForMails(email, 1, undefined, (received) => received.subject === 'Your Veil VPN refund could not be made');
    expect(notice!.text).toContain('$100.00');
  });

  test('a refund job of the old shape, {subscriptionId} (queued before refunds had ids), is still carried out once, and leaves with the account', async () => {
    const { userId, email, sessionToken } = await paying('old-shape');
    const subscriptionId = 'sub_old-shape';
    // As a refund was owed before 0015: its row, and a job naming the subscription.
    await api.database.db.insert(refunds).values({ providerSubscriptionId: subscriptionId, userId, provider: 'stripe', reason: 'second_subscription' });
    const oldJob: OldShapeRefundJob = { subscriptionId };
    expect(await api.jobs.send(api.database.db, REFUND_QUEUE, oldJob, `refund:${subscriptionId}`)).toBe(true);

    await until(async () => (await refundRow(subscriptionId))?.state === 'made');
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(stripe.refunds.map((refund) => [refund.payment_intent, refund.amount])).toEqual([['pi_sub_old-shape', 10000]]);
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([expect.objectContaining({ amount: 10000 })]);
    // Sent again (a webhook delivered twice would owe it again): the row is one, the refund made once.
    expect(await api.jobs.send(api.database.db, REFUND_QUEUE, oldJob, `refund:${subscriptionId}-again`)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(stripe.refunds).toHaveLength(1);

    // The old job's payload names the subscription in clear: it leaves when the refund's ids are hashed.
    expect(await inJobQueue([subscriptionId])).toEqual([subscriptionId]);
    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
    expect(await refundRow(subscriptionId)).toMatchObject({ userId: null, providerSubscriptionId: forgottenProviderId(subscriptionId) });
    expect(await inJobQueue([subscriptionId, 'pi_sub_old-shape'])).toEqual([]);
  });

  test('a Stripe 500 on the first refund is not replayed for a day: the retry asks with a new key, and the refund is made once', async () => {
    const { userId, sessionToken } = await paying('first-500');
    stripe.failNext('/v1/refunds');
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'first-500' })).toMatchObject({ status: 200 });

    await until(async () => (await refundRow('sub_first-500'))?.state === 'made');
    const calls = sent('POST', '/v1/refunds');
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((request) => request.idempotencyKey)).size).toBe(2);
    expect(stripe.refunds.map((refund) => [refund.payment_intent, refund.amount])).toEqual([['pi_sub_first-500', 10000]]);
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([expect.objectContaining({ amount: 10000 })]);
    expect(await history(sessionToken)).toContainEqual({ kind: 'refund', amount: 10000, description: 'Refund', refundState: 'made' });
  });

  test('a refund Stripe made but whose answer was lost (500) is found before the retry: never a second refund', async () => {
    const { userId } = await paying('answer-lost');
    stripe.failNextAfterDoing('/v1/refunds');
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'answer-lost' })).toMatchObject({ status: 200 });

    await until(async () => (await refundRow('sub_answer-lost'))?.state === 'made');
    expect(stripe.refunds).toHaveLength(1);
    expect(sent('POST', '/v1/refunds')).toHaveLength(1);
    expect(sent('GET', '/v1/refunds').length).toBeGreaterThanOrEqual(2);
    expect(await refundRow('sub_answer-lost')).toMatchObject({ providerRefundId: stripe.refunds[0]!.id, amount: 10000 });
    expect(await mailsOwed(api.database, 'refund', userId)).toHaveLength(1);
  });

  test.each([
    ['a disputed charge (400 charge_disputed)', 400, 'charge_disputed'],
    ['a 402 (the balance cannot cover it)', 402, 'insufficient_funds'],
  ])('a refund Stripe refuses for good, %s, is failed with its reason: shown, alerted, and the customer told support will contact them', async (_case, status, code) => {
    const { userId, sessionToken } = await paying(`refused-${status}`);
    const alertsBefore = await metric('veil_refunds_failed_total');
    stripe.refuseNext('/v1/refunds', { status, error: { type: status === 402 ? 'card_error' : 'invalid_request_error', code, message: 'refused' } });
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: `refused-${status}` })).toMatchObject({ status: 200 });

    await until(async () => (await refundRow(`sub_refused-${status}`))?.state === 'failed');
    expect(await refundRow(`sub_refused-${status}`)).toMatchObject({ state: 'failed', stateReason: code, refundedAt: null });
    // Refused, not retried: one request.
    expect(sent('POST', '/v1/refunds')).toHaveLength(1);
    expect(await history(sessionToken)).toContainEqual({
      kind: 'refund',
      amount: 10000,
      description: 'Refund failed: our support team will contact you',
      refundState: 'failed',
    });
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([]);
    expect(await mailsOwed(api.database, 'refund_failed', userId)).toEqual([expect.objectContaining({ amount: 10000, currency: 'usd' })]);
    // The job raises the alert once it has recorded the failure and read the row again: a moment after the
    // row shows it (one more round trip on PostgreSQL), so the count is waited for, not read at once.
    await until(async () => (await metric('veil_refunds_failed_total')) > alertsBefore);
    expect(await metric('veil_refunds_failed_total')).toBe(alertsBefore + 1);
  });

  test.each([
    ['refund.failed', 'failed'],
    ['charge.refund.updated', 'failed'],
  ])('a refund made that fails later (%s) is failed: the history stops saying "Refund", and the alert and the e-mail go', async (type, status) => {
    const { userId, customer, sessionToken } = await paying(`later-${type}`);
    const subscriptionId = `sub_later-${type}`;
    await call(api.app, 'POST', '/api/subscription/refund', { idToken: `later-${type}` });
    await until(async () => (await refundRow(subscriptionId))?.state === 'made');
    const [made] = stripe.refunds;
    // Stripe's report of the refund, then its failure (the card account was closed).
    await stripeEvent('charge.refunded', { id: 'ch_later', object: 'charge', customer, payment_intent: made!.payment_intent, amount_refunded: 10000, currency: 'usd' });
    expect(await history(sessionToken)).toContainEqual({ kind: 'refund', amount: 10000, description: 'Refund', refundState: 'made' });
    const alertsBefore = await metric('veil_refunds_failed_total');

    const failedRefund = { ...made, status, failure_reason: 'expired_or_canceled_card' };
    expect(await stripeEvent(type, failedRefund)).toEqual({ status: 200, body: { received: true, outcome: 'refund_failed' } });
    expect(await refundRow(subscriptionId)).toMatchObject({ state: 'failed', stateReason: 'expired_or_canceled_card' });
    const refundsShown = (await history(sessionToken)).filter((item) => item.kind === 'refund');
    expect(refundsShown).toEqual([{ kind: 'refund', amount: 10000, description: 'Refund failed: our support team will contact you', refundState: 'failed' }]);
    expect(await mailsOwed(api.database, 'refund_failed', userId)).toHaveLength(1);
    expect(await metric('veil_refunds_failed_total')).toBe(alertsBefore + 1);
    // Delivered again: nothing more.
    expect(await stripeEvent(type, failedRefund)).toMatchObject({ body: { outcome: 'ignored' } });
  });

  test('money-back refunds exactly the first payment, not the latest invoice (a proration since)', async () => {
    const { userId, customer } = await paying('first-only');
    stripe.subscriptions.get('sub_first-only')!.latest_invoice = 'in_proration';
    stripe.paymentAmounts.set('pi_proration', 1234);
    await stripeEvent('invoice.paid', paidInvoice({ id: 'in_proration', customer, subscription: 'sub_first-only', userId, amount: 1234, paidAt: nowSeconds() - 3600 }));

    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'first-only' })).toMatchObject({
      status: 200,
      body: { refund: { amount: 10000, currency: 'usd' } },
    });
    await until(async () => (await refundRow('sub_first-only'))?.state === 'made');
    expect(stripe.refunds.map((refund) => [refund.payment_intent, refund.amount])).toEqual([['pi_sub_first-only', 10000]]);
  });

  test('a money-back claim after a Dashboard partial refund announces the remainder, in its answer and its e-mail', async () => {
    const { userId, customer } = await paying('dash-partial');
    // $40 refunded in the Stripe Dashboard: Stripe holds the refund and reports it.
    await dashboardRefund(customer, { refundId: 're_dashboard', chargeId: 'ch_dash', paymentIntent: 'pi_sub_dash-partial', amount: 4000, charged: 10000 });

    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'dash-partial' })).toMatchObject({
      status: 200,
      body: { refund: { amount: 6000, currency: 'usd' } },
    });
    await until(async () => (await refundRow('sub_dash-partial'))?.state === 'made');
    expect(stripe.refunds.map((refund) => refund.amount)).toEqual([4000, 6000]);
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([expect.objectContaining({ amount: 6000, currency: 'usd' })]);
  });

  test('a Dashboard refund of another payment in the same currency is not taken off the first: money-back refunds and announces the first in full', async () => {
    const { userId, customer } = await paying('other-payment');
    // A proration paid since, in dollars too, then refunded in full in the Stripe Dashboard.
    stripe.paymentAmounts.set('pi_proration-other', 1234);
    await stripeEvent('invoice.paid', paidInvoice({ id: 'in_proration-other', customer, subscription: 'sub_other-payment', userId, amount: 1234, paidAt: nowSeconds() - 3600 }));
    await dashboardRefund(customer, { refundId: 're_dashboard_other', chargeId: 'ch_proration', paymentIntent: 'pi_proration-other', amount: 1234, charged: 1234 });
    // Each charge names the payment that paid it (asked of Stripe: the invoice.paid payload did not include it).
    const stored = await api.database.db.select({ id: charges.id, paymentIntent: charges.paymentIntent }).from(charges).where(eq(charges.userId, userId));
    expect(stored.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'in_proration-other', paymentIntent: 'pi_proration-other' },
      { id: 'in_sub_other-payment', paymentIntent: 'pi_sub_other-payment' },
    ]);

    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'other-payment' })).toMatchObject({
      status: 200,
      body: { refund: { amount: 10000, currency: 'usd' } },
    });
    await until(async () => (await refundRow('sub_other-payment'))?.state === 'made');
    expect(stripe.refunds.filter((refund) => refund.payment_intent === 'pi_sub_other-payment').map((refund) => refund.amount)).toEqual([10000]);
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([expect.objectContaining({ amount: 10000, currency: 'usd' })]);
  });

  test('a charge stored before charges named their payment keeps the date and currency rule: the remainder is announced', async () => {
    const { userId, customer } = await paying('stored-before');
    await api.database.db.update(charges).set({ paymentIntent: null }).where(eq(charges.userId, userId));
    await dashboardRefund(customer, { refundId: 're_dashboard_before', chargeId: 'ch_before', paymentIntent: 'pi_sub_stored-before', amount: 2500, charged: 10000 });

    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'stored-before' })).toMatchObject({
      status: 200,
      body: { refund: { amount: 7500, currency: 'usd' } },
    });
  });

  test('money-back is refused with a clear 409 while a dispute of a payment is open, and granted once it is closed', async () => {
    const { customer } = await paying('disputer');
    stripe.chargeCustomers.set('ch_disputed', customer);
    const dispute = { id: 'dp_1', object: 'dispute', charge: 'ch_disputed', payment_intent: 'pi_sub_disputer', status: 'needs_response', amount: 10000, currency: 'usd' };
    expect(await stripeEvent('charge.dispute.created', dispute, { created: nowSeconds() - 60 })).toMatchObject({ status: 200, body: { outcome: 'applied' } });

    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'disputer' })).toMatchObject({
      status: 409,
      body: {
        success: false,
        code: 'dispute_open',
        error:
          'You have disputed a payment with your card issuer, so it cannot be refunded here while the dispute is open. Your card issuer decides the dispute and returns the money if it finds for you.',
      },
    });
    expect(sent('POST', '/v1/refunds')).toHaveLength(0);

    // An older update delivered late does not reopen it.
    await stripeEvent('charge.dispute.closed', { ...dispute, status: 'won' });
    await stripeEvent('charge.dispute.updated', { ...dispute, status: 'under_review' }, { created: nowSeconds() - 30 });
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'disputer' })).toMatchObject({ status: 200 });
    // Made, and within this test: a refund job still running would make its refund in the next one.
    await until(async () => (await refundRow('sub_disputer'))?.state === 'made');
    expect(stripe.refunds.map((refund) => [refund.payment_intent, refund.amount])).toEqual([['pi_sub_disputer', 10000]]);
  });

  test('a second subscription that was never charged (a trial) is ended with no refund: no e-mail, no history line', async () => {
    const { userId, sessionToken } = await paying('trial-second');
    const trial = structuredClone(stripe.addSubscription('sub_trial', 'cus_trial-second', userId, { status: 'trialing', latest_invoice: null }));
    expect(await stripeEvent('customer.subscription.created', trial)).toMatchObject({ body: { outcome: 'second_subscription_cancelled' } });
    await until(async () => (await refundRow('sub_trial'))?.state === 'not_owed');
    expect(await refundRow('sub_trial')).toMatchObject({ stateReason: 'nothing_paid', amount: null });
    expect(stripe.refunds).toHaveLength(0);
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([]);
    expect((await history(sessionToken)).filter((item) => item.kind === 'refund')).toEqual([]);
  });

  test('an older charge.refunded delivered late never overwrites a newer total', async () => {
    const { customer, sessionToken } = await paying('two-partials');
    const charge = { id: 'ch_partials', object: 'charge', customer, payment_intent: 'pi_sub_two-partials', currency: 'usd' };
    await stripeEvent('charge.refunded', { ...charge, amount_refunded: 5000 }, { created: nowSeconds() - 10 });
    await stripeEvent('charge.refunded', { ...charge, amount_refunded: 2000 }, { created: nowSeconds() - 20 });
    expect((await history(sessionToken)).filter((item) => item.kind === 'refund')).toEqual([
      { kind: 'refund', amount: 5000, description: 'Refund', refundState: 'made' },
    ]);
  });

  test('a refund is listed once while the call to Stripe is in flight, even when Stripe\'s charge.refunded comes first', async () => {
    const { customer, sessionToken } = await paying('in-flight');
    stripe.stopAnswering('/v1/refunds');
    try {
      await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'in-flight' });
      await until(async () => (await refundRow('sub_in-flight'))?.paymentIntent);
      await stripeEvent('charge.refunded', { id: 'ch_in_flight', object: 'charge', customer, payment_intent: 'pi_sub_in-flight', amount_refunded: 10000, currency: 'usd' });
      expect((await history(sessionToken)).filter((item) => item.kind === 'refund')).toEqual([
        { kind: 'refund', amount: 10000, description: 'Refund', refundState: 'made' },
      ]);
    } finally {
      stripe.answerAgain('/v1/refunds');
    }
  });

  test('a resume made in the Billing Portal sends the "renewal on" e-mail, once', async () => {
    const { userId, subscription } = await paying('portal-resume');
    await stripeEvent('customer.subscription.updated', { ...subscription, cancel_at_period_end: true }, { created: nowSeconds() - 60 });
    const resumed = { ...subscription, cancel_at_period_end: false };
    await stripeEvent('customer.subscription.updated', resumed, { created: nowSeconds() - 30 });
    await stripeEvent('customer.subscription.updated', resumed, { created: nowSeconds() - 30 });
    expect(await mailsOwed(api.database, 'renewal_on', userId)).toEqual([expect.objectContaining({ userId })]);
  });
});

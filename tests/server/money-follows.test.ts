/**
 * Money and access never wrong (issue 46, items 1-4, 6 and 8): the fourth Stripe check's reproductions,
 * each against the Stripe stand-in with signed Stripe-format events, on both databases. A duplicate's refund
 * is owed whoever ends it; access follows the money (past due keeps it, unpaid and a lost dispute end it);
 * money-back refunds the payment it ends; a refund status event that comes before the job stored the refund's
 * id is matched; another product's events are not ours; a claim after a full Dashboard refund owes nothing.
 * The HTTP-layer items (4, 5, 7: alerts, logs, keys, answers) are in refunds-never-silent.test.ts.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { refunds } from '../../server/db/schema';
import { mailsOwed } from '../support/mail-owed';
import { call } from '../support/server-harness';
import { describeStripeApi, paidInvoice } from '../support/stripe-api';
import { until } from '../support/until';
import { listedKeys, newPublicKey, registerKey, RELAY_TOKEN } from '../support/wireguard';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

const env = {
  STRIPE_TIMEOUT_MS: '1000',
  BILLING_JOB_RETRY_DELAY: '1',
  RATE_LIMIT_SCALE: '10',
  RELAY_TOKENS: `test-relay:${RELAY_TOKEN}`,
};

describeStripeApi('money follows the rules (issue 46)', 'sql', env, ({ api, stripe, stripeEvent, sent }) => {
  const refundRow = async (subscriptionId: string) => (await api.database.db.select().from(refunds).where(eq(refunds.providerSubscriptionId, subscriptionId)))[0];
  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const user = body.user as { id: string; email: string };
    return { userId: user.id, email: user.email, sessionToken: body.sessionToken as string };
  }
  const historyOf = async (sessionToken: string) => (await call(api.app, 'POST', '/api/billing/history', { sessionToken })).body as { items: Array<Record<string, unknown>>; refundableUntil?: string };
  const refundLines = async (sessionToken: string) =>
    (await historyOf(sessionToken)).items.filter((item) => item.kind === 'refund').map(({ amount, description, refundState }) => ({ amount, description, refundState }));
  /** A paid subscription `sub_<name>` of `user` (invoice in_sub_<name>, payment pi_sub_<name>), paid at `paidAt`. */
  async function subscribe(user: { userId: string }, customer: string, name: string, paidAt = nowSeconds() - DAY) {
    const subscription = structuredClone(stripe.addSubscription(`sub_${name}`, customer, user.userId));
    await stripeEvent('customer.subscription.created', subscription, { created: paidAt });
    await stripeEvent('invoice.paid', paidInvoice({ id: `in_sub_${name}`, customer, subscription: `sub_${name}`, userId: user.userId, paidAt }));
    return subscription;
  }
  async function paying(name: string, paidAt = nowSeconds() - DAY) {
    const user = await signIn(name);
    const customer = `cus_${name}`;
    await stripeEvent('checkout.session.completed', { id: `cs_${name}`, client_reference_id: user.userId, customer });
    const subscription = await subscribe(user, customer, name, paidAt);
    return { ...user, customer, subscription };
  }
  const claim = (name: string) => call(api.app, 'POST', '/api/subscription/refund', { idToken: name });
  const verify = async (sessionToken: string) => (await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription as Record<string, unknown> | null;

  test('item 1: a duplicate subscription cancelled in the portal before the refund job got through is still refunded', async () => {
    const { userId, customer, sessionToken } = await paying('dup');
    const second = structuredClone(stripe.addSubscription('sub_dup-second', customer, userId));
    await stripeEvent('invoice.paid', paidInvoice({ id: 'in_sub_dup-second', customer, subscription: 'sub_dup-second', userId, paidAt: nowSeconds() - 60 }));
    // Ended in the Billing Portal (no comment of ours) while Stripe was out for the refund job.
    stripe.subscriptions.get('sub_dup-second')!.status = 'canceled';
    expect(await stripeEvent('customer.subscription.created', second)).toMatchObject({ body: { outcome: 'second_subscription_cancelled' } });

    await until(async () => (await refundRow('sub_dup-second'))?.state !== 'owed');
    expect(await refundRow('sub_dup-second')).toMatchObject({ state: 'made', amount: 10000 });
    expect(stripe.refunds.map((refund) => [refund.payment_intent, refund.amount])).toEqual([['pi_sub_dup-second', 10000]]);
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([expect.objectContaining({ amount: 10000 })]);
    expect(await verify(sessionToken)).toMatchObject({ status: 'active' });
  });

  test('item 2: keys stay listed while past_due, leave when unpaid; a key registered while unpaid is refused and not listed', async () => {
    const { sessionToken, subscription } = await paying('dunning');
    const key = newPublicKey();
    expect((await registerKey(api.app, sessionToken, key, 'Laptop', 'dunning')).status).toBe(200);
    expect(await listedKeys(api.app)).toEqual([key]);

    await stripeEvent('customer.subscription.updated', { ...subscription, status: 'past_due' }, { created: nowSeconds() - 30 });
    expect(await listedKeys(api.app)).toEqual([key]);
    const retried = await verify(sessionToken);
    expect(retried).toMatchObject({ status: 'past_due' });
    expect(retried).not.toHaveProperty('unpaid');

    await stripeEvent('customer.subscription.updated', { ...subscription, status: 'unpaid' }, { created: nowSeconds() - 20 });
    expect(await listedKeys(api.app)).toEqual([]);
    // Shown past due as before, but the account page is told there is no access (issue 46, item 2).
    expect(await verify(sessionToken)).toMatchObject({ status: 'past_due', unpaid: true });
    const refused = await registerKey(api.app, sessionToken, newPublicKey(), 'Phone', 'dunning');
    expect(refused).toMatchObject({ status: 403, body: { success: false, code: 'no_access' } });
    expect(await listedKeys(api.app)).toEqual([]);

    // Paid in the portal: the same key comes back.
    await stripeEvent('customer.subscription.updated', { ...subscription, status: 'active' }, { created: nowSeconds() - 10 });
    expect(await listedKeys(api.app)).toEqual([key]);
    expect(await verify(sessionToken)).not.toHaveProperty('unpaid');
  });

  test('item 2: while a dispute is open the history offers no money-back; a lost dispute ends access and turns auto-renewal off', async () => {
    const { sessionToken, customer } = await paying('chargeback');
    const key = newPublicKey();
    await registerKey(api.app, sessionToken, key, 'Laptop', 'chargeback');
    expect((await historyOf(sessionToken)).refundableUntil).toBeDefined();
    stripe.chargeCustomers.set('ch_chargeback', customer);
    const dispute = { id: 'dp_cb', object: 'dispute', charge: 'ch_chargeback', payment_intent: 'pi_sub_chargeback', status: 'needs_response', amount: 10000, currency: 'usd' };
    expect(await stripeEvent('charge.dispute.created', dispute, { created: nowSeconds() - 60 })).toMatchObject({ body: { outcome: 'applied' } });
    expect((await historyOf(sessionToken)).refundableUntil).toBeUndefined();
    expect(await listedKeys(api.app)).toEqual([key]);

    expect(await stripeEvent('charge.dispute.closed', { ...dispute, status: 'lost' }, { created: nowSeconds() - 30 })).toMatchObject({ status: 200 });
    expect(await listedKeys(api.app)).toEqual([]);
    expect(await verify(sessionToken)).toMatchObject({ status: 'cancelled' });
    await until(() => stripe.subscriptions.get('sub_chargeback')!.cancel_at_period_end);
    // Delivered again, or an older update late: nothing comes back.
    await stripeEvent('charge.dispute.updated', { ...dispute, status: 'under_review' }, { created: nowSeconds() - 45 });
    await stripeEvent('customer.subscription.updated', { ...stripe.subscriptions.get('sub_chargeback')! }, { created: nowSeconds() });
    expect(await listedKeys(api.app)).toEqual([]);
    expect(await claim('chargeback')).toMatchObject({ status: 404 });
  });

  test('item 3: money-back refunds the live subscription\'s first payment, not an earlier plan\'s that ended without a refund', async () => {
    const user = await signIn('again');
    const customer = 'cus_again';
    await stripeEvent('checkout.session.completed', { id: 'cs_again', client_reference_id: user.userId, customer });
    const old = await subscribe(user, customer, 'again-old', nowSeconds() - 20 * DAY);
    await stripeEvent('customer.subscription.deleted', { ...old, status: 'canceled' }, { created: nowSeconds() - 10 * DAY });
    await subscribe(user, customer, 'again-new', nowSeconds() - DAY);

    expect(await claim('again')).toMatchObject({ status: 200, body: { refund: { amount: 10000, currency: 'usd' } } });
    await until(async () => (await refundRow('sub_again-new'))?.state === 'made');
    expect(await refundRow('sub_again-new')).toMatchObject({ chargeId: 'in_sub_again-new', reason: 'money_back' });
    expect(stripe.refunds.map((refund) => refund.payment_intent)).toEqual(['pi_sub_again-new']);
  });

  test('item 3: a year-old first plan does not close the window of a new subscription paid yesterday', async () => {
    const user = await signIn('returning');
    const customer = 'cus_returning';
    await stripeEvent('checkout.session.completed', { id: 'cs_returning', client_reference_id: user.userId, customer });
    const old = await subscribe(user, customer, 'returning-old', nowSeconds() - 400 * DAY);
    await stripeEvent('customer.subscription.deleted', { ...old, status: 'canceled' }, { created: nowSeconds() - 30 * DAY });
    expect((await historyOf(user.sessionToken)).refundableUntil).toBeUndefined();
    const paidAt = nowSeconds() - DAY;
    await subscribe(user, customer, 'returning-new', paidAt);
    const until30 = (await historyOf(user.sessionToken)).refundableUntil;
    expect(new Date(until30!).getTime()).toBe((paidAt + 30 * DAY) * 1000);
    expect(await claim('returning')).toMatchObject({ status: 200, body: { refund: { amount: 10000 } } });
  });

  test('item 4: a refund status event that arrives before the job stored the refund id is matched by its metadata', async () => {
    const { userId } = await paying('early-event');
    stripe.stopAnswering('/v1/refunds');
    let answer: Awaited<ReturnType<typeof stripeEvent>>;
    try {
      expect(await claim('early-event')).toMatchObject({ status: 200 });
      await until(async () => (await refundRow('sub_early-event'))?.paymentIntent);
      // Stripe made the refund (its answer to the job is still on its way) and reports it succeeded.
      const made = { id: 're_early', object: 'refund' as const, payment_intent: 'pi_sub_early-event', amount: 10000, currency: 'usd', status: 'succeeded', metadata: { veil_refund: 'refund:sub_early-event' } };
      stripe.refunds.push(made);
      answer = await stripeEvent('refund.updated', made);
    } finally {
      stripe.answerAgain('/v1/refunds');
    }
    expect(answer).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    expect(await refundRow('sub_early-event')).toMatchObject({ state: 'made', providerRefundId: 're_early', amount: 10000 });
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([expect.objectContaining({ amount: 10000 })]);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(stripe.refunds).toHaveLength(1);
    expect(await mailsOwed(api.database, 'refund', userId)).toHaveLength(1);
  });

  test("item 6: another product's refund and dispute neither show in the VPN history nor block the money-back claim", async () => {
    const { customer, sessionToken } = await paying('two-products');
    stripe.chargeCustomers.set('ch_other_product', customer);
    const otherCharge = { id: 'ch_other_product', object: 'charge', customer, payment_intent: 'pi_other_product', amount: 500, amount_refunded: 500, currency: 'usd' };
    expect(await stripeEvent('charge.refunded', otherCharge)).toMatchObject({ body: { outcome: 'ignored' } });
    const dispute = { id: 'dp_other', object: 'dispute', charge: 'ch_other_product', payment_intent: 'pi_other_product', status: 'needs_response', amount: 500, currency: 'usd' };
    expect(await stripeEvent('charge.dispute.created', dispute)).toMatchObject({ body: { outcome: 'ignored' } });
    expect(await refundLines(sessionToken)).toEqual([]);
    expect((await historyOf(sessionToken)).refundableUntil).toBeDefined();
    expect(await claim('two-products')).toMatchObject({ status: 200, body: { refund: { amount: 10000 } } });
  });

  test('item 8: a claim after a full Dashboard refund says nothing is owed, keeps the subscription, and the history stops offering it', async () => {
    const { customer, sessionToken } = await paying('dash-full');
    stripe.refunds.push({ id: 're_dash_full', object: 'refund', payment_intent: 'pi_sub_dash-full', amount: 10000, currency: 'usd', status: 'succeeded', metadata: {} });
    const charge = { id: 'ch_dash_full', object: 'charge', customer, payment_intent: 'pi_sub_dash-full', amount: 10000, amount_refunded: 10000, currency: 'usd' };
    await stripeEvent('charge.refunded', charge, { created: nowSeconds() - 60 });
    expect((await historyOf(sessionToken)).refundableUntil).toBeUndefined();

    expect(await claim('dash-full')).toMatchObject({ status: 409, body: { success: false, code: 'already_refunded' } });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active' });
    expect(await refundRow('sub_dash-full')).toBeUndefined();
    expect(sent('DELETE', '/v1/subscriptions/sub_dash-full')).toEqual([]);
  });
});

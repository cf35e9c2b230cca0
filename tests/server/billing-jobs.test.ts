/**
 * Money work as jobs (issue 20, item 1), against the Stripe stand-in: the webhook records the event, the
 * state change and the owed refund in one transaction and answers at once; the refund job ends the
 * subscription and returns the money at Stripe, retrying with keys derived from the job until Stripe
 * answers, whatever arrives meanwhile.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { paymentEvents, refunds } from '../../server/db/schema';
import { call } from '../support/server-harness';
import { describeStripeApi } from '../support/stripe-api';
import { mailsOwed } from '../support/mail-owed';
import { until } from '../support/until';

/**
 * A $100 invoice of a subscription paid at `paidAt` (seconds), as Stripe sends it in invoice.paid, with
 * `receiptUrl` its hosted page; `more` adds the fields one test needs.
 */
function paidInvoice(
  { id, customer, subscription, userId, paidAt, receiptUrl }: { id: string; customer: string; subscription: string; userId: string; paidAt: number; receiptUrl: string },
  more: object = {},
) {
  return {
    id,
    customer,
    amount_paid: 10000,
    currency: 'usd',
    hosted_invoice_url: receiptUrl,
    status_transitions: { paid_at: paidAt },
    parent: { subscription_details: { subscription, metadata: { userId } } },
    ...more,
  };
}

// A Stripe that does not answer is given up on quickly here, and the job retried soon.
const settings = { STRIPE_TIMEOUT_MS: '1000', BILLING_JOB_RETRY_DELAY: '1', RATE_LIMIT_SCALE: '10', STRIPE_PORTAL_CONFIGURATION: 'bpc_veil' };

describeStripeApi('billing with Stripe', 'sql', settings, ({ api, stripe, stripeEvent, sent }) => {

  const owed = async (subscriptionId: string) =>
    (await api.database.db.select().from(refunds).where(eq(refunds.providerSubscriptionId, subscriptionId)))[0];
  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
  }
  test('a refund Stripe fails is owed first and made by the job, even after Stripe reports the subscription deleted', async () => {
    const { userId } = await signIn('refund-then-deleted');
    await stripeEvent('customer.subscription.created', stripe.addSubscription('sub_kept', 'cus_rtd', userId));
    const stray = structuredClone(stripe.addSubscription('sub_stray', 'cus_rtd', userId));
    stripe.failNext('/v1/refunds');

    // The webhook answers at once: the event, the stray subscription's end and the owed refund are recorded.
    expect(await stripeEvent('customer.subscription.created', stray, { id: 'evt_stray' })).toEqual({
      status: 200,
      body: { received: true, outcome: 'second_subscription_cancelled' },
    });
    expect(await api.database.db.select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_stray'))).toHaveLength(1);
    // Owed before Stripe says how much it refunds (no invoice.paid of it arrived yet).
    expect(await owed('sub_stray')).toMatchObject({ userId, reason: 'second_subscription', state: 'owed', amount: null });

    // The job's first refund call fails; Stripe's own "deleted" event comes before the retry.
    await until(() => sent('POST', '/v1/refunds').length >= 1);
    expect(await stripeEvent('customer.subscription.deleted', { ...stray, status: 'canceled' })).toMatchObject({ status: 200 });

    const done = await until(async () => (await owed('sub_stray'))?.refundedAt);
    expect(done).toBeInstanceOf(Date);
    expect(await owed('sub_stray')).toMatchObject({ state: 'made', amount: 10000, currency: 'usd' });
    const refundCalls = sent('POST', '/v1/refunds');
    expect(refundCalls.map((request) => request.body.get('payment_intent'))).toEqual(['pi_sub_stray', 'pi_sub_stray']);
    // Each attempt has a key of its own (Stripe would replay the 500 under the same key), derived from the
    // job's; the refund is made once.
    const [firstKey, retryKey] = refundCalls.map((request) => request.idempotencyKey);
    expect(firstKey).toMatch(/^refund:sub_stray:pi_sub_stray:/);
    expect(retryKey).toMatch(/^refund:sub_stray:pi_sub_stray:/);
    expect(retryKey).not.toBe(firstKey);
    expect(stripe.refunds).toHaveLength(1);
    expect(sent('DELETE', '/v1/subscriptions/sub_stray').map((request) => request.idempotencyKey)).toEqual([expect.stringMatching(/^refund-cancel:refund:sub_stray:/)]);
    expect(stripe.subscriptions.get('sub_stray')!.status).toBe('canceled');
    expect(stripe.subscriptions.get('sub_kept')!.status).toBe('active');
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([expect.objectContaining({ userId, amount: 10000, currency: 'usd' })]);
  });

  test('a Stripe that never answers: the webhook answers at once, the job times out and is retried until Stripe answers', async () => {
    const { userId } = await signIn('stripe-silent');
    await stripeEvent('customer.subscription.created', stripe.addSubscription('sub_first_silent', 'cus_silent', userId));
    stripe.stopAnswering('/v1/refunds');

    const stray = structuredClone(stripe.addSubscription('sub_silent', 'cus_silent', userId));
    expect(await stripeEvent('customer.subscription.created', stray)).toEqual({
      status: 200,
      body: { received: true, outcome: 'second_subscription_cancelled' },
    });
    // A second delivery for the same subscription is not held behind the provider call.
    expect(await stripeEvent('customer.subscription.updated', stray)).toMatchObject({ status: 200 });

    // The first attempt hung until the client's timeout; the job tried again.
    await until(() => stripe.requests.filter((request) => request.path === '/v1/refunds').length >= 2);
    expect((await owed('sub_silent'))!.refundedAt).toBeNull();

    stripe.answerAgain('/v1/refunds');
    await until(async () => (await owed('sub_silent'))?.refundedAt);
    expect(stripe.subscriptions.get('sub_silent')!.status).toBe('canceled');
  });

  test('resume with Stripe: cancel_at_period_end off and cancel_at cleared, stored as Stripe answered', async () => {
    const { userId, sessionToken } = await signIn('stripe-resumer');
    const subscription = stripe.addSubscription('sub_resume', 'cus_resume', userId, { cancel_at_period_end: true, cancel_at: Math.floor(Date.now() / 1000) + 86_400 });
    await stripeEvent('customer.subscription.updated', structuredClone(subscription));
    const resumed = await call(api.app, 'POST', '/api/subscription/resume', { idToken: 'stripe-resumer' });
    expect(resumed).toMatchObject({ status: 200, body: { success: true, subscription: { status: 'active', cancelAtPeriodEnd: false } } });
    const [update] = sent('POST', '/v1/subscriptions/sub_resume');
    expect(update!.body.get('cancel_at_period_end')).toBe('false');
    expect(update!.body.get('cancel_at')).toBe('');
    expect(update!.idempotencyKey).toMatch(/^resume:sub_resume:/);
    expect(stripe.subscriptions.get('sub_resume')).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
    const verified = await call(api.app, 'POST', '/api/auth/verify', { sessionToken });
    expect(verified.body.subscription).toMatchObject({ cancelAtPeriodEnd: false });

    await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'stripe-resumer' });
    stripe.failNext('/v1/subscriptions/sub_resume');
    expect(await call(api.app, 'POST', '/api/subscription/resume', { idToken: 'stripe-resumer' })).toMatchObject({
      status: 502,
      body: { success: false, code: 'provider_failed' },
    });
  });

  test('invoice.paid is a charge in the billing history with Stripe\'s hosted invoice as the receipt, for its account only', async () => {
    const { userId, sessionToken } = await signIn('stripe-payer');
    await stripeEvent('customer.subscription.created', stripe.addSubscription('sub_paid', 'cus_paid', userId));
    const paidAt = Math.floor(Date.now() / 1000) - 60;
    const invoice = paidInvoice(
      { id: 'in_paid_1', customer: 'cus_paid', subscription: 'sub_paid', userId, paidAt, receiptUrl: 'https://invoice.stripe.com/i/acct_x/in_paid_1' },
      { object: 'invoice', lines: { data: [{ period: { end: paidAt + 365 * 86_400 } }] } },
    );
    expect(await stripeEvent('invoice.paid', invoice)).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    // Delivered again: still one charge, one receipt e-mail.
    expect(await stripeEvent('invoice.paid', invoice)).toMatchObject({ status: 200, body: { outcome: 'ignored' } });

    const history = await call(api.app, 'POST', '/api/billing/history', { sessionToken });
    expect(history.body.items).toEqual([
      {
        id: 'in_paid_1',
        kind: 'charge',
        amount: 10000,
        currency: 'usd',
        date: new Date(paidAt * 1000).toISOString(),
        description: 'Veil VPN Premium, 1 year',
        receiptUrl: 'https://invoice.stripe.com/i/acct_x/in_paid_1',
      },
    ]);
    expect(await mailsOwed(api.database, 'receipt', userId)).toHaveLength(1);
    const stranger = await signIn('stripe-stranger');
    expect((await call(api.app, 'POST', '/api/billing/history', { sessionToken: stranger.sessionToken })).body.items).toEqual([]);
  });

  test('the billing portal is Stripe\'s, for the account\'s customer, with our portal configuration, returning to the account page', async () => {
    const { userId } = await signIn('stripe-portal');
    await stripeEvent('checkout.session.completed', { id: 'cs_portal', client_reference_id: userId, customer: 'cus_portal' });
    await stripeEvent('customer.subscription.updated', stripe.addSubscription('sub_portal', 'cus_portal', userId, { status: 'past_due' }));
    const portal = await call(api.app, 'POST', '/api/billing/portal', { idToken: 'stripe-portal' });
    expect(portal).toMatchObject({ status: 200, body: { success: true, url: expect.stringMatching(/^https:\/\/billing\.stripe\.com\/p\/session\//) } });
    const [request] = sent('POST', '/v1/billing_portal/sessions');
    expect(request!.body.get('customer')).toBe('cus_portal');
    expect(request!.body.get('return_url')).toMatch(/\/account$/);
    // What customers may change in the portal is ours (STRIPE_PORTAL_CONFIGURATION), not the Dashboard default's.
    expect(request!.body.get('configuration')).toBe('bpc_veil');
  });

  test('money-back with Stripe: refunded by the job, then shown once with Stripe\'s receipt when charge.refunded arrives', async () => {
    const { userId, sessionToken } = await signIn('stripe-money-back');
    await stripeEvent('checkout.session.completed', { id: 'cs_mb', client_reference_id: userId, customer: 'cus_mb' });
    await stripeEvent('customer.subscription.created', stripe.addSubscription('sub_mb', 'cus_mb', userId));
    const paidAt = Math.floor(Date.now() / 1000) - 86_400;
    await stripeEvent(
      'invoice.paid',
      paidInvoice({ id: 'in_sub_mb', customer: 'cus_mb', subscription: 'sub_mb', userId, paidAt, receiptUrl: 'https://invoice.stripe.com/i/in_sub_mb' }),
    );

    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'stripe-money-back' })).toMatchObject({
      status: 200,
      body: { subscription: { status: 'cancelled' }, refund: { amount: 10000, currency: 'usd' } },
    });
    await until(async () => (await owed('sub_mb'))?.refundedAt);
    expect(stripe.subscriptions.get('sub_mb')!.status).toBe('canceled');
    expect(sent('POST', '/v1/refunds').map((request) => request.body.get('payment_intent'))).toEqual(['pi_sub_mb']);
    expect(await owed('sub_mb')).toMatchObject({ reason: 'money_back', paymentIntent: 'pi_sub_mb' });

    const refundedCharge = { id: 'ch_mb', object: 'charge', customer: 'cus_mb', payment_intent: 'pi_sub_mb', amount_refunded: 10000, currency: 'usd', receipt_url: 'https://pay.stripe.com/receipts/ch_mb' };
    expect(await stripeEvent('charge.refunded', refundedCharge)).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    const history = await call(api.app, 'POST', '/api/billing/history', { sessionToken });
    expect((history.body.items as Array<Record<string, unknown>>).map((item) => [item.kind, item.amount, item.receiptUrl])).toEqual([
      ['refund', 10000, 'https://pay.stripe.com/receipts/ch_mb'],
      ['charge', 10000, 'https://invoice.stripe.com/i/in_sub_mb'],
    ]);
    expect(history.body.refundableUntil).toBeUndefined();
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'stripe-money-back' })).toMatchObject({
      status: 409,
      body: { code: 'already_refunded' },
    });
  });
});

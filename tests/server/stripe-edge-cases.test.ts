/**
 * Stripe edge cases (issue 20, item 6), against the Stripe stand-in: a customer deleted in the Dashboard,
 * subscriptions of another product, the provider's own time ordering events, two checkouts at the same
 * moment, and subscriptions that can never be linked to an account.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { paymentEvents, refunds, users } from '../../server/db/schema';
import { call } from '../support/server-harness';
import { describeStripeApi } from '../support/stripe-api';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describeStripeApi('Stripe edge cases', 'http', { STRIPE_PRICE_ID: 'price_vpn_yearly', RATE_LIMIT_SCALE: '10' }, ({ api, stripe, stripeEvent, sent }) => {

  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
  }
  const checkout = (name: string) => call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
  const verify = async (sessionToken: string) => (await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription;
  const withPrice = (price: string, product = `prod_${price}`) => ({
    items: { object: 'list' as const, data: [{ current_period_end: nowSeconds() + 365 * 86_400, price: { id: price, nickname: null, product } }] },
  });

  test('customer.deleted clears the stored customer: the next checkout makes a new one (a new key: Stripe would replay the deleted one)', async () => {
    const { userId } = await signIn('dashboard-deleted');
    expect((await checkout('dashboard-deleted')).status).toBe(200);
    const [before] = await api.database.db.select().from(users).where(eq(users.id, userId));
    expect(await stripeEvent('customer.deleted', { id: before!.paymentCustomerId, object: 'customer' })).toMatchObject({
      status: 200,
      body: { outcome: 'applied' },
    });
    const [after] = await api.database.db.select().from(users).where(eq(users.id, userId));
    expect(after!.paymentCustomerId).toBeNull();

    expect((await checkout('dashboard-deleted')).status).toBe(200);
    const customers = sent('POST', '/v1/customers');
    expect(customers).toHaveLength(2);
    const sessions = sent('POST', '/v1/checkout/sessions');
    expect(sessions).toHaveLength(2);
    expect(sessions[1]!.body.get('customer')).not.toBe(before!.paymentCustomerId);
    // The stand-in replays an answer under a used key, as Stripe does for 24 hours.
    expect(customers[1]!.idempotencyKey).not.toBe(customers[0]!.idempotencyKey);
  });

  test('only subscriptions of the configured price count: another product grants nothing and is never cancelled or refunded', async () => {
    const { userId, sessionToken } = await signIn('two-products');
    const other = stripe.addSubscription('sub_other_product', 'cus_two', userId, withPrice('price_other_product'));
    expect(await stripeEvent('customer.subscription.created', other)).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    expect(await verify(sessionToken)).toBeNull();

    await stripeEvent('customer.subscription.created', stripe.addSubscription('sub_vpn', 'cus_two', userId, withPrice('price_vpn_yearly')));
    const another = stripe.addSubscription('sub_other_again', 'cus_two', userId, withPrice('price_other_product'));
    expect(await stripeEvent('customer.subscription.created', another)).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active' });
    expect(await api.database.db.select().from(refunds)).toHaveLength(0);
    const paidElsewhere = { id: 'in_other', customer: 'cus_two', amount_paid: 500, currency: 'usd', lines: { data: [{ price: { id: 'price_other_product' } }] } };
    expect(await stripeEvent('invoice.paid', paidElsewhere)).toMatchObject({ body: { outcome: 'ignored' } });
  });

  test('the provider\'s time orders events: after turning renewal off, a Stripe event dated a moment earlier still applies', async () => {
    const { userId, sessionToken } = await signIn('ordered-by-stripe');
    const subscription = stripe.addSubscription('sub_ordered', 'cus_ordered', userId);
    await stripeEvent('customer.subscription.created', structuredClone(subscription), { created: nowSeconds() - 60 });
    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'ordered-by-stripe' })).status).toBe(200);
    // The renewal had failed two seconds before the cancel reached Stripe; its event arrives now.
    expect(await stripeEvent('customer.subscription.updated', { ...subscription, status: 'past_due', cancel_at_period_end: true }, { created: nowSeconds() - 2 })).toMatchObject({
      body: { outcome: 'applied' },
    });
    expect(await verify(sessionToken)).toMatchObject({ status: 'past_due', cancelAtPeriodEnd: true });
  });

  test('two checkouts asked for at the same moment open one payable Stripe session', async () => {
    await signIn('double-click');
    const [first, second] = await Promise.all([checkout('double-click'), checkout('double-click')]);
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 200, body: { url: first.body.url } });
    expect(sent('POST', '/v1/checkout/sessions')).toHaveLength(1);
    expect(sent('POST', '/v1/customers')).toHaveLength(1);
  });

  test('a subscription that can never be linked is deferred at first, then acknowledged after an hour and recorded', async () => {
    const orphan = stripe.addSubscription('sub_payment_link', 'cus_payment_link', 'usr_not_ours', { metadata: {} });
    expect(await stripeEvent('customer.subscription.created', orphan, { created: nowSeconds(), id: 'evt_fresh_orphan' })).toMatchObject({
      status: 409,
      body: { code: 'event_deferred' },
    });
    expect(await stripeEvent('customer.subscription.created', orphan, { created: nowSeconds() - 3601, id: 'evt_old_orphan' })).toEqual({
      status: 200,
      body: { received: true, outcome: 'unlinkable' },
    });
    expect(await api.database.db.select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_old_orphan'))).toHaveLength(1);
    expect(stripe.subscriptions.get('sub_payment_link')!.status).toBe('active');
  });

  test('another price of the VPN product (a portal plan switch, a price migration) is the plan: access stays, its payment is a charge', async () => {
    const { userId, sessionToken } = await signIn('price-switch');
    // The configured price's product, as Stripe answers GET /v1/prices/price_vpn_yearly (asked once, then kept).
    const vpn = 'prod_price_vpn_yearly';
    await stripeEvent('customer.subscription.created', stripe.addSubscription('sub_switch', 'cus_switch', userId, withPrice('price_vpn_yearly', vpn)), { created: nowSeconds() - 60 });
    // Switched in the Billing Portal to the product's new price.
    const switched = stripe.addSubscription('sub_switch', 'cus_switch', userId, { ...withPrice('price_vpn_2027', vpn), cancel_at_period_end: true });
    expect(await stripeEvent('customer.subscription.updated', switched)).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    const renewal = { id: 'in_switch', customer: 'cus_switch', amount_paid: 9000, currency: 'usd', lines: { data: [{ price: { id: 'price_vpn_2027', product: vpn } }] }, parent: { subscription_details: { subscription: 'sub_switch', metadata: { userId } } } };
    expect(await stripeEvent('invoice.paid', renewal)).toMatchObject({ body: { outcome: 'applied' } });
    // Another product is still not the plan.
    const other = stripe.addSubscription('sub_switch_other', 'cus_switch', userId, withPrice('price_other', 'prod_other'));
    expect(await stripeEvent('customer.subscription.created', other)).toMatchObject({ body: { outcome: 'ignored' } });
  });
});

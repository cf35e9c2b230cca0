/**
 * The Stripe adapter through the official SDK against a local stand-in for Stripe's API (the SDK's
 * host/port/protocol options): what is sent for customers, checkout, cancel at period end, immediate
 * cancel and refunds, and how the API keeps one live subscription per account.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { openCheckouts, subscriptions, users } from '../../server/db/schema';
import { call, createTestApi, nameVerifier } from '../support/server-harness';
import { describeStripeApi } from '../support/stripe-api';
import { until } from '../support/until';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Many sign-ins, checkouts and deletions from one test address within a minute.
const settings = { PUBLIC_URL: 'https://veil.example', RATE_LIMIT_SCALE: '10', RATE_LIMIT_SIGN_IN: '200' };

describeStripeApi('Stripe adapter', 'sql', settings, ({ api, stripe, stripeEvent, sent, driver }) => {

  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const user = body.user as { id: string; email: string };
    return { ...user, userId: user.id, sessionToken: body.sessionToken as string };
  }
  const checkout = (name: string) => call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
  const verify = async (sessionToken: string) => (await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription;

  test('checkout with the account\'s one customer, cancel at period end and cancel on deletion', async () => {
    const { userId, email, sessionToken } = await signIn('stripe-customer');

    const opened = await checkout('stripe-customer');
    expect(opened.body).toEqual({ url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/) });
    const [customer] = sent('POST', '/v1/customers');
    expect(customer!.body.get('email')).toBe(email);
    expect(customer!.body.get('metadata[userId]')).toBe(userId);
    const [stored] = await api.database.db.select().from(users).where(eq(users.id, userId));
    expect(stored!.paymentCustomerId).toMatch(/^cus_standin_/);

    const [session] = sent('POST', '/v1/checkout/sessions');
    expect(session!.body.get('mode')).toBe('subscription');
    expect(session!.body.get('client_reference_id')).toBe(userId);
    expect(session!.body.get('customer')).toBe(stored!.paymentCustomerId);
    expect(session!.body.get('customer_email')).toBeNull();
    expect(session!.body.get('line_items[0][price]')).toBe('price_yearly');
    expect(session!.body.get('subscription_data[metadata][userId]')).toBe(userId);
    expect(Number(session!.body.get('expires_at')) - Date.now() / 1000).toBeGreaterThan(3500);
    expect(Number(session!.body.get('expires_at')) - Date.now() / 1000).toBeLessThanOrEqual(3600);
    expect(session!.body.get('success_url')).toBe('https://veil.example/success');
    expect(session!.body.get('cancel_url')).toBe('https://veil.example/cancel');
    // Said before paying (issue 20, item 7).
    expect(session!.body.get('custom_text[submit][message]')).toBe(
      'Your plan renews automatically every year at $100 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.',
    );
    expect(session!.idempotencyKey).toMatch(new RegExp(`^checkout:${userId}:`));
    expect(session!.idempotencyKey).toMatch(UUID);

    // Stripe reports the purchase through webhooks.
    const subscription = stripe.addSubscription('sub_123', stored!.paymentCustomerId!, userId);
    await stripeEvent('checkout.session.completed', { id: 'cs_test_x', client_reference_id: userId, customer: stored!.paymentCustomerId, subscription: 'sub_123' });
    await stripeEvent('customer.subscription.created', subscription as unknown as Record<string, unknown>);
    expect(await verify(sessionToken)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'stripe-customer' });
    const [cancel] = sent('POST', '/v1/subscriptions/sub_123');
    expect(cancel!.body.get('cancel_at_period_end')).toBe('true');
    expect(cancel!.idempotencyKey).toMatch(/^cancel-at-period-end:sub_123:/);

    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken });
    expect(deleted.status).toBe(200);
    const [cancelNow] = sent('DELETE', '/v1/subscriptions/sub_123');
    expect(cancelNow!.idempotencyKey).toMatch(/^cancel-now:sub_123:/);
    expect(stripe.subscriptions.get('sub_123')!.status).toBe('canceled');
  });

  test('a second checkout reuses the open one; after it expires a new one is made with a new idempotency key', async () => {
    const { userId } = await signIn('two-tabs');
    const first = await checkout('two-tabs');
    const second = await checkout('two-tabs');
    expect(second).toMatchObject({ status: 200, body: { url: first.body.url } });
    expect(sent('POST', '/v1/checkout/sessions')).toHaveLength(1);
    expect(sent('POST', '/v1/customers')).toHaveLength(1);

    // Stripe's `expires_at` has (nearly) come: the old checkout is not offered any more.
    await api.database.db.update(openCheckouts).set({ expiresAt: new Date(Date.now() + 60_000) }).where(eq(openCheckouts.userId, userId));
    const third = await checkout('two-tabs');
    expect(third.status).toBe(200);
    expect(third.body.url).not.toBe(first.body.url);
    const sessions = sent('POST', '/v1/checkout/sessions');
    expect(sessions).toHaveLength(2);
    expect(sessions[0]!.idempotencyKey).not.toBe(sessions[1]!.idempotencyKey);
    // The customer is made once and reused.
    expect(sent('POST', '/v1/customers')).toHaveLength(1);
    expect(sessions[1]!.body.get('customer')).toBe(sessions[0]!.body.get('customer'));

    // A completed checkout is not offered again.
    await stripeEvent('checkout.session.completed', { id: third.body.url!.toString().split('/').at(-1), client_reference_id: userId, customer: 'cus_x' });
    expect(await api.database.db.select().from(openCheckouts)).toHaveLength(0);
  });

  test.each([
    ['already cancelled at Stripe', 'sub_final'],
    ['no longer known to Stripe', 'sub_gone'],
  ])('deletion works when the subscription is %s (our record still says active)', async (_case, subscriptionId) => {
    const { userId, email, sessionToken } = await signIn(`final-${subscriptionId}`);
    const live = stripe.addSubscription(subscriptionId, `cus_${subscriptionId}`, userId);
    await stripeEvent('customer.subscription.created', { ...live } as unknown as Record<string, unknown>);
    // Stripe ended it (or forgot it) and the event saying so never reached us.
    if (subscriptionId === 'sub_gone') stripe.subscriptions.delete(subscriptionId);
    else live.status = 'canceled';

    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken });
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).status).toBe(401);
  });

  const deleteAccount = (user: { userId: string; email: string; sessionToken: string }) =>
    call(api.app, 'DELETE', '/api/auth/delete-account', { email: user.email, userId: user.userId, sessionToken: user.sessionToken });
  const openSessionId = async (name: string) => {
    const opened = await checkout(name);
    expect(opened.status).toBe(200);
    return String(opened.body.url).split('/').at(-1)!;
  };

  test('deletion closes the account\'s open checkout at Stripe, so it can no longer be paid', async () => {
    const user = await signIn('open-at-deletion');
    const sessionId = await openSessionId('open-at-deletion');
    expect(stripe.checkoutSessions.get(sessionId)!.status).toBe('open');

    expect(await deleteAccount(user)).toMatchObject({ status: 200, body: { success: true } });
    expect(stripe.checkoutSessions.get(sessionId)!.status).toBe('expired');
    const [expire] = sent('POST', `/v1/checkout/sessions/${sessionId}/expire`);
    expect(expire!.idempotencyKey).toMatch(new RegExp(`^expire-checkout:${sessionId}:`));
  });

  test.each([
    ['completed (paid a moment ago)', 'complete'],
    ['expired already', 'expired'],
    ['no longer known to Stripe', 'gone'],
  ])('deletion works when the open checkout is %s at Stripe', async (_case, state) => {
    const user = await signIn(`closed-checkout-${state}`);
    const sessionId = await openSessionId(`closed-checkout-${state}`);
    if (state === 'gone') stripe.checkoutSessions.delete(sessionId);
    else stripe.checkoutSessions.get(sessionId)!.status = state as 'complete' | 'expired';

    expect(await deleteAccount(user)).toMatchObject({ status: 200, body: { success: true } });
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken: user.sessionToken })).status).toBe(401);
  });

  test('an open checkout Stripe fails to close stops the deletion (nothing deleted)', async () => {
    const user = await signIn('checkout-refused-to-close');
    const sessionId = await openSessionId('checkout-refused-to-close');
    stripe.failNext(`/v1/checkout/sessions/${sessionId}/expire`);

    expect(await deleteAccount(user)).toMatchObject({
      status: 502,
      body: { success: false, error: 'Your open checkout could not be closed, so nothing was deleted. Please try again.', code: 'provider_failed' },
    });
    expect(stripe.checkoutSessions.get(sessionId)!.status).toBe('open');
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken: user.sessionToken })).status).toBe(200);
  });

  test('a subscription paid for an account deleted meanwhile is cancelled and refunded, not deferred until Stripe gives up', async () => {
    const user = await signIn('paid-after-deletion');
    const sessionId = await openSessionId('paid-after-deletion');
    // Paid at Stripe just before the deletion closed the checkout; the subscription's events come after.
    stripe.checkoutSessions.get(sessionId)!.status = 'complete';
    expect((await deleteAccount(user)).status).toBe(200);
    const orphan = structuredClone(stripe.addSubscription('sub_orphan', 'cus_orphan', user.userId));

    expect(await stripeEvent('customer.subscription.created', orphan as never)).toEqual({
      status: 200,
      body: { received: true, outcome: 'deleted_account_subscription_cancelled' },
    });
    // The refund job (issue 20, item 1) ends it and returns the money, after the webhook answered.
    await until(() => sent('POST', '/v1/refunds').length > 0);
    expect(stripe.subscriptions.get('sub_orphan')!.status).toBe('canceled');
    expect(sent('POST', '/v1/refunds').map((request) => request.body.get('payment_intent'))).toEqual(['pi_sub_orphan']);
    expect(await api.database.db.select().from(subscriptions)).toHaveLength(0);
    // Stripe then reports it deleted: nothing to do.
    expect(await stripeEvent('customer.subscription.deleted', { ...orphan, status: 'canceled' })).toMatchObject({
      status: 200,
      body: { outcome: 'ignored' },
    });

    // A user id never seen here is "not known yet", not deleted: deferred as before (Stripe retries).
    const unknown = structuredClone(stripe.addSubscription('sub_unknown', 'cus_unknown', 'usr_never_seen'));
    expect(await stripeEvent('customer.subscription.created', unknown as never)).toMatchObject({
      status: 409,
      body: { success: false, code: 'event_deferred' },
    });
    expect(stripe.subscriptions.get('sub_unknown')!.status).toBe('active');
  });

  // Needs two connections at once: PGlite has one.
  test.skipIf(driver !== 'postgres')('a subscription stored by a webhook while the deletion runs is cancelled too, not cascaded away', async () => {
    const user = await signIn('racing-webhook');
    stripe.addSubscription('sub_racing', 'cus_racing', user.userId);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let stored!: () => void;
    const storedYet = new Promise<void>((resolve) => (stored = resolve));
    // A webhook's transaction that has stored the subscription but not committed yet.
    const webhook = api.database.db.transaction(async (tx) => {
      await tx.insert(subscriptions).values({
        providerSubscriptionId: 'sub_racing',
        userId: user.userId,
        provider: 'stripe',
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: new Date(Date.now() + 365 * 86_400_000),
        providerUpdatedAt: Math.floor(Date.now() / 1000),
      });
      stored();
      await released;
    });
    await storedYet;
    const deletion = deleteAccount(user);
    // The deletion has found no subscription (none committed) and now waits for the account row.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await webhook;

    expect(await deletion).toMatchObject({ status: 200, body: { success: true } });
    expect(stripe.subscriptions.get('sub_racing')!.status).toBe('canceled');
  });

  test('a live subscription Stripe fails to cancel still stops the deletion (nothing deleted)', async () => {
    const { userId, email, sessionToken } = await signIn('refused-cancel');
    const live = stripe.addSubscription('sub_live_but_refused', 'cus_refused', userId);
    await stripeEvent('customer.subscription.created', live as unknown as Record<string, unknown>);
    stripe.failNext('/v1/subscriptions/sub_live_but_refused');

    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken });
    expect(deleted).toMatchObject({ status: 502, body: { success: false } });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active' });
  });

  test.each([
    ['active', 'You already have an active subscription.'],
    ['past_due', 'Your subscription has a payment past due. Please update your payment details instead of subscribing again.'],
  ])('no new checkout while the subscription is %s: 409', async (status, error) => {
    const { userId } = await signIn(`live-${status}`);
    await stripeEvent('customer.subscription.created', stripe.addSubscription(`sub_live_${status}`, 'cus_live', userId, { status }) as never);
    expect(await checkout(`live-${status}`)).toMatchObject({ status: 409, body: { success: false, error } });
    expect(sent('POST', '/v1/checkout/sessions')).toHaveLength(0);
  });

  test('past due: auto-renewal can still be turned off', async () => {
    const { userId, sessionToken } = await signIn('late-card');
    const subscription = structuredClone(stripe.addSubscription('sub_late', 'cus_late', userId, { status: 'past_due' }));
    await stripeEvent('customer.subscription.updated', subscription as never);
    expect(await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'late-card' })).toMatchObject({
      status: 200,
      body: { subscription: { status: 'past_due', cancelAtPeriodEnd: true } },
    });
    expect(sent('POST', '/v1/subscriptions/sub_late')).toHaveLength(1);
    expect(await verify(sessionToken)).toMatchObject({ status: 'past_due', cancelAtPeriodEnd: true });
  });

  test('a second subscription paid anyway is cancelled and refunded; the first stays, and cancel and deletion reach it', async () => {
    const { userId, email, sessionToken } = await signIn('paid-twice');
    const first = stripe.addSubscription('sub_first', 'cus_twice', userId);
    const second = stripe.addSubscription('sub_second', 'cus_twice', userId);
    expect(await stripeEvent('customer.subscription.created', first as never)).toMatchObject({ body: { outcome: 'applied' } });
    expect(await stripeEvent('customer.subscription.created', second as never)).toMatchObject({
      status: 200,
      body: { outcome: 'second_subscription_cancelled' },
    });

    // The refund job (issue 20, item 1) ends it and returns the money, after the webhook answered.
    await until(() => sent('POST', '/v1/refunds').length > 0);
    expect(stripe.subscriptions.get('sub_second')!.status).toBe('canceled');
    expect(stripe.subscriptions.get('sub_first')!.status).toBe('active');
    const [refund] = sent('POST', '/v1/refunds');
    expect(refund!.body.get('payment_intent')).toBe('pi_sub_second');
    const rows = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(Object.fromEntries(rows.map((row) => [row.providerSubscriptionId, row.status]))).toEqual({ sub_first: 'active', sub_second: 'cancelled' });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active' });

    // Stripe then reports the second one deleted; the first is untouched.
    await stripeEvent('customer.subscription.deleted', { ...second, status: 'canceled' });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active' });

    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'paid-twice' })).status).toBe(200);
    expect(sent('POST', '/v1/subscriptions/sub_first')).toHaveLength(1);
    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
    expect(stripe.subscriptions.get('sub_first')!.status).toBe('canceled');
    expect(sent('DELETE', '/v1/subscriptions/sub_second')).toHaveLength(1);
  });

  test('an account that subscribes again after its subscription ended is shown the new one', async () => {
    const { userId, sessionToken } = await signIn('bought-again');
    const old = stripe.addSubscription('sub_old', 'cus_again', userId);
    await stripeEvent('customer.subscription.created', old as never);
    await stripeEvent('customer.subscription.deleted', { ...old, status: 'canceled' });
    expect(await verify(sessionToken)).toMatchObject({ status: 'cancelled' });

    // The ended row stays (it was stored first); verify must answer the live one, not whichever comes first.
    await stripeEvent('customer.subscription.created', stripe.addSubscription('sub_new', 'cus_again', userId) as never);
    expect(await verify(sessionToken)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    const rows = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(rows).toHaveLength(2);
  });

  test('cancel answers the state Stripe returned (renewal off) and stores it before any webhook', async () => {
    const { userId, sessionToken } = await signIn('cancel-now-shown');
    await stripeEvent('customer.subscription.created', structuredClone(stripe.addSubscription('sub_shown', 'cus_shown', userId)) as never);
    const answer = await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'cancel-now-shown' });
    expect(answer).toMatchObject({ status: 200, body: { success: true, subscription: { status: 'active', cancelAtPeriodEnd: true } } });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  });

  test.each([
    ['active', 'active'],
    ['past_due', 'past_due'],
  ])('two states in one second are settled by asking Stripe, which holds %s', async (held, shown) => {
    const { userId, sessionToken } = await signIn(`tie-${held}`);
    const subscription = stripe.addSubscription(`sub_tie_${held}`, 'cus_tie', userId);
    const created = Math.floor(Date.now() / 1000);
    // Whatever arrives last, the provider's own current state decides.
    const [first, last] = held === 'active' ? ['active', 'past_due'] : ['past_due', 'active'];
    await stripeEvent('customer.subscription.updated', { ...subscription, status: first }, { created });
    subscription.status = held;
    await stripeEvent('customer.subscription.updated', { ...subscription, status: last }, { created });
    expect(sent('GET', `/v1/subscriptions/sub_tie_${held}`)).toHaveLength(1);
    expect(await verify(sessionToken)).toMatchObject({ status: shown });
  });

  test('a returning customer\'s stored Stripe customer is reused', async () => {
    const { userId } = await signIn('returning-customer');
    await stripeEvent('checkout.session.completed', { id: 'cs_old', client_reference_id: userId, customer: 'cus_returning' });
    await checkout('returning-customer');
    expect(sent('POST', '/v1/customers')).toHaveLength(0);
    const [request] = sent('POST', '/v1/checkout/sessions');
    expect(request!.body.get('customer')).toBe('cus_returning');
    expect(request!.body.get('customer_email')).toBeNull();
  });
});

test('Stripe down: checkout answers 502 JSON, never a stack trace', async () => {
  const down = await createTestApi({
    driver: 'pglite',
    verifier: nameVerifier,
    env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PRICE_ID: 'price_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_API_BASE: 'http://127.0.0.1:9' },
  });
  try {
    await call(down.app, 'POST', '/api/auth/google/signin', { idToken: 'unlucky' });
    expect(await call(down.app, 'POST', '/api/subscription/create-checkout', { idToken: 'unlucky', email: 'u@example.com' })).toEqual({
      status: 502,
      body: { success: false, error: 'Failed to create checkout session', code: 'provider_failed' },
      headers: expect.anything(),
    });
  } finally {
    await down.close();
  }
});

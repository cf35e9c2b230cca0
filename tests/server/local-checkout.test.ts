/**
 * The local checkout keeps one live subscription per account (issue 10, section 3): an open checkout is
 * reused, expires after an hour, and a checkout paid while another subscription is live is not activated.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { localCheckoutSessions, openCheckouts, paymentEvents, subscriptions } from '../../server/db/schema';
import { LocalPaymentProvider } from '../../server/payments/local-provider';
import { describeApi } from '../support/describe-api';
import { call } from '../support/server-harness';

const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: token }) };

describeApi('local checkout', { layer: 'sql', verifier }, (api) => {

  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
  }
  const checkoutPath = async (name: string) => {
    const answer = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
    expect(answer.status).toBe(200);
    return new URL(answer.body.url as string).pathname;
  };
  const pay = (path: string) => api.app.inject({ method: 'POST', url: `${path}/pay` });
  const liveRows = async (userId: string) =>
    (await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId))).filter((row) =>
      ['active', 'past_due'].includes(row.status),
    );

  test('a second checkout reuses the open one', async () => {
    await signIn('double-click');
    expect(await checkoutPath('double-click')).toBe(await checkoutPath('double-click'));
    expect(await api.database.db.select().from(localCheckoutSessions)).toHaveLength(1);
  });

  test('a checkout paid after another one activated is not activated; the account keeps one subscription', async () => {
    const { userId, sessionToken } = await signIn('two-checkouts');
    const first = await checkoutPath('two-checkouts');
    // The first is no longer offered (as if about to expire), so a second, distinct checkout opens.
    await api.database.db.update(openCheckouts).set({ expiresAt: new Date(Date.now() + 60_000) }).where(eq(openCheckouts.userId, userId));
    const second = await checkoutPath('two-checkouts');
    expect(second).not.toBe(first);

    expect((await pay(second)).headers.location).toBe('/success');
    const paidFirst = await pay(first);
    expect(paidFirst.statusCode).toBe(303);
    expect(paidFirst.headers.location).toBe('/cancel');
    expect(await liveRows(userId)).toHaveLength(1);
    expect(await api.database.db.select().from(subscriptions)).toHaveLength(1);
    expect((await api.app.inject({ method: 'GET', url: first })).body).toContain('This checkout is already cancelled.');
    const verified = await call(api.app, 'POST', '/api/auth/verify', { sessionToken });
    expect(verified.body.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
  });

  test('a checkout left open when its account is deleted: Pay charges nothing and says the checkout does not exist', async () => {
    const { userId, sessionToken } = await signIn('deleted-with-open-checkout');
    const path = await checkoutPath('deleted-with-open-checkout');
    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email: 'deleted-with-open-checkout@example.com', userId, sessionToken });
    expect(deleted.status).toBe(200);

    expect(await call(api.app, 'POST', `${path}/pay`)).toMatchObject({
      status: 404,
      body: { success: false, error: 'This checkout does not exist.', code: 'not_found' },
    });
    expect(await api.database.db.select().from(subscriptions)).toHaveLength(0);
    expect(await api.database.db.select().from(paymentEvents)).toHaveLength(0);
  });

  test('the local provider expires an open checkout (as deletion does first): its page says cancelled and Pay charges nothing', async () => {
    const { userId } = await signIn('expired-by-deletion');
    const emitted: unknown[] = [];
    const local = new LocalPaymentProvider(api.database.db, 'http://veil.test', async (event) => {
      emitted.push(event);
    });
    const { id } = await local.createCheckout({ userId, email: 'expired-by-deletion@example.com', customerId: null });
    await local.expireCheckout(id);

    expect(await local.openSession(id)).toMatchObject({ status: 'cancelled' });
    await expect(local.pay(id)).rejects.toMatchObject({ statusCode: 404 });
    expect(emitted).toHaveLength(0);
    expect(await api.database.db.select().from(subscriptions)).toHaveLength(0);
  });

  test('an open checkout expires after an hour: its page says so and Pay charges nothing', async () => {
    const { userId } = await signIn('slow-payer');
    const path = await checkoutPath('slow-payer');
    await api.database.db
      .update(localCheckoutSessions)
      .set({ createdAt: new Date(Date.now() - 3601_000) })
      .where(eq(localCheckoutSessions.userId, userId));
    expect((await api.app.inject({ method: 'GET', url: path })).body).toContain('This checkout is expired');
    expect((await pay(path)).headers.location).toBe('/cancel');
    expect(await api.database.db.select().from(subscriptions)).toHaveLength(0);
  });
});

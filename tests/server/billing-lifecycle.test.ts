/**
 * A customer's year with the local checkout (issue 20, items 2-4): the billing history with its printable
 * receipt (only the account's own), auto-renewal turned back on, and the 30-day money-back guarantee.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { charges, refunds } from '../../server/db/schema';
import { mailsOwed } from '../support/mail-owed';
import { call } from '../support/server-harness';
import { until } from '../support/until';

const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: token }) };

describeApi('billing lifecycle with the local checkout', { layer: 'http', verifier, env: { BILLING_JOB_RETRY_DELAY: '1', RATE_LIMIT_SCALE: '10' } }, (api) => {
  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
  }
  /** Signs in and pays a local checkout, as the customer does. */
  async function subscribed(name: string) {
    const user = await signIn(name);
    const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
    const paid = await api.app.inject({ method: 'POST', url: `${new URL(opened.body.url as string).pathname}/pay` });
    expect(paid.headers.location).toBe('/success');
    return user;
  }
  const history = (sessionToken: string) => call(api.app, 'POST', '/api/billing/history', { sessionToken });
  const verify = async (sessionToken: string) => (await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription;

  test('the billing history shows the payment with a printable receipt, and only to its own account', async () => {
    const { userId, sessionToken } = await subscribed('history-owner');
    const answer = await history(sessionToken);
    expect(answer.status).toBe(200);
    const [charge] = answer.body.items as Array<Record<string, unknown>>;
    expect(answer.body).toEqual({ success: true, items: [charge], refundableUntil: expect.any(String) });
    expect(charge).toEqual({
      id: expect.stringMatching(/^in_local_/),
      kind: 'charge',
      amount: 10000,
      currency: 'usd',
      date: expect.any(String),
      description: 'Veil VPN Premium, 1 year',
      receiptUrl: `http://veil.test/api/billing/receipts/${String(charge!.id)}`,
    });

    const receipt = await api.app.inject({ method: 'GET', url: new URL(charge!.receiptUrl as string).pathname });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toContain('text/html');
    for (const shown of ['Receipt', 'Veil Labs, Inc.', 'history-owner@example.com', 'Veil VPN Premium, 1 year', '$100.00', String(charge!.id)]) {
      expect(receipt.body).toContain(shown);
    }
    expect(await mailsOwed(api.database, 'receipt', userId)).toEqual([
      expect.objectContaining({ userId, amount: 10000, currency: 'usd', description: 'Veil VPN Premium, 1 year', nextRenewal: expect.any(String) }),
    ]);

    // Another account sees none of it; a stranger's token sees nothing at all.
    const other = await signIn('history-stranger');
    expect((await history(other.sessionToken)).body).toEqual({ success: true, items: [] });
    expect(await history('not-a-session')).toMatchObject({ status: 401, body: { success: false, code: 'session_invalid' } });
    expect(await call(api.app, 'GET', '/api/billing/receipts/in_local_unknown')).toMatchObject({
      status: 404,
      body: { success: false, code: 'not_found' },
    });
  });

  test('the local checkout page says the plan renews automatically before Pay (item 7)', async () => {
    await signIn('reads-first');
    const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'reads-first', email: 'reads-first@example.com' });
    const page = await api.app.inject({ method: 'GET', url: new URL(opened.body.url as string).pathname });
    const disclosure = page.body.indexOf(
      'Your plan renews automatically every year at $100 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.',
    );
    expect(disclosure).toBeGreaterThan(0);
    expect(disclosure).toBeLessThan(page.body.indexOf('Pay $100'));
  });

  test('auto-renewal turned off can be turned back on while the period runs', async () => {
    const { userId, sessionToken } = await subscribed('resumer');
    await call(api.app, 'POST', '/api/subscription/cancel', { idToken: 'resumer' });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });

    const resumed = await call(api.app, 'POST', '/api/subscription/resume', { idToken: 'resumer' });
    expect(resumed).toMatchObject({ status: 200, body: { success: true, subscription: { status: 'active', cancelAtPeriodEnd: false } } });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(await mailsOwed(api.database, 'renewal_on', userId)).toEqual([expect.objectContaining({ userId, renewalDate: expect.any(String) })]);

    // Nothing to resume without a subscription.
    await signIn('never-paid');
    expect(await call(api.app, 'POST', '/api/subscription/resume', { idToken: 'never-paid' })).toMatchObject({
      status: 404,
      body: { success: false, code: 'no_subscription' },
    });
  });

  test('within 30 days of the first payment the refund ends the subscription now and returns the payment, once', async () => {
    const { userId, sessionToken } = await subscribed('refunder');
    const refunded = await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'refunder' });
    expect(refunded).toMatchObject({
      status: 200,
      body: { success: true, subscription: { status: 'cancelled' }, refund: { amount: 10000, currency: 'usd' } },
    });
    expect(await verify(sessionToken)).toMatchObject({ status: 'cancelled' });
    const [owed] = await api.database.db.select().from(refunds).where(eq(refunds.userId, userId));
    expect(owed).toMatchObject({ reason: 'money_back', amount: 10000 });

    // The history shows it at once; the refund job makes it; the guarantee cannot be claimed again.
    expect((await history(sessionToken)).body).toEqual({
      success: true,
      items: [expect.objectContaining({ kind: 'refund', amount: 10000, currency: 'usd' }), expect.objectContaining({ kind: 'charge' })],
    });
    await until(async () => (await api.database.db.select().from(refunds).where(eq(refunds.userId, userId)))[0]?.refundedAt);
    expect(await mailsOwed(api.database, 'refund', userId)).toEqual([expect.objectContaining({ userId, amount: 10000 })]);
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'refunder' })).toMatchObject({
      status: 409,
      body: { success: false, code: 'already_refunded' },
    });
  });

  test('a refunded subscription says when it ended refunded, and the account that had its money back is not promised it again (issue 45, T23 and T8)', async () => {
    const { sessionToken } = await subscribed('refunded-once');
    const fresh = await verify(sessionToken);
    expect(fresh).not.toHaveProperty('refundedAt');
    expect(fresh).not.toHaveProperty('moneyBackUsed');
    const refunded = await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'refunded-once' });
    const refundedAt = (refunded.body.subscription as { refundedAt: string }).refundedAt;
    expect(Date.now() - Date.parse(refundedAt)).toBeLessThan(60_000);
    expect(refunded.body.subscription).toMatchObject({ status: 'cancelled', refundedAt, moneyBackUsed: true });
    // verify's one statement and a new sign-in say the same.
    expect(await verify(sessionToken)).toMatchObject({ status: 'cancelled', refundedAt, moneyBackUsed: true });
    const again = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'refunded-once' });
    expect(again.body.subscription).toMatchObject({ status: 'cancelled', refundedAt, moneyBackUsed: true });

    // Subscribed again: the new plan was not refunded, and the guarantee stays used (once per account).
    const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'refunded-once', email: 'refunded-once@example.com' });
    await api.app.inject({ method: 'POST', url: `${new URL(opened.body.url as string).pathname}/pay` });
    const renewed = await verify(sessionToken);
    expect(renewed).toMatchObject({ status: 'active', moneyBackUsed: true });
    expect(renewed).not.toHaveProperty('refundedAt');
    expect((await history(sessionToken)).body).not.toHaveProperty('refundableUntil');
  });

  test('an account that never paid is told there is nothing to refund, not that the guarantee ended (issue 34)', async () => {
    await signIn('never-paid');
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'never-paid' })).toEqual({
      status: 409,
      body: {
        success: false,
        error: 'There is no payment to refund: this account has not paid for a subscription. The money-back guarantee covers your first payment once you have made it.',
        code: 'nothing_to_refund',
      },
      headers: expect.anything(),
    });
    expect(await api.database.db.select().from(refunds)).toHaveLength(0);
  });

  test('after 30 days the refund answers 409 refund_window_closed and changes nothing', async () => {
    const { userId, sessionToken } = await subscribed('too-late');
    await api.database.db
      .update(charges)
      .set({ paidAt: new Date(Date.now() - 30 * 86_400_000 - 60_000) })
      .where(eq(charges.userId, userId));
    expect((await history(sessionToken)).body.refundableUntil).toBeUndefined();
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'too-late' })).toEqual({
      status: 409,
      body: {
        success: false,
        error: 'The 30-day money-back guarantee has ended for this account: it runs for 30 days from your first payment.',
        code: 'refund_window_closed',
      },
      headers: expect.anything(),
    });
    expect(await verify(sessionToken)).toMatchObject({ status: 'active' });
    expect(await api.database.db.select().from(refunds)).toHaveLength(0);
  });
});

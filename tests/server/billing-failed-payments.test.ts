/**
 * Failed payments and the billing clock (issue 20, items 5 and 8), with the local checkout: a declined
 * renewal leaves the subscription past due and owes the "payment failed" e-mail; the billing portal page
 * settles it, renewing from the original period end; one never settled ends after 30 days; and a
 * 29 February anniversary renews on 28 February, then on 29 February again in the next leap year.
 */
import { expect, test } from 'vitest';
import { mailsOwed } from '../support/mail-owed';
import { describeApi } from '../support/describe-api';
import { call } from '../support/server-harness';

const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: token }) };

describeApi('failed payments with the local checkout', { layer: 'http', verifier, env: { RATE_LIMIT_SCALE: '10' } }, (api) => {

  async function subscribed(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
    await api.app.inject({ method: 'POST', url: `${new URL(opened.body.url as string).pathname}/pay` });
    return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string };
  }
  const advance = (by: string, decline?: boolean) => call(api.app, 'POST', '/api/dev/billing-clock/advance', { by, ...(decline ? { decline } : {}) });
  const subscriptionOf = async (sessionToken: string) =>
    (await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).body.subscription as { status: string; endDate: string };

  test('a declined renewal is past due; the portal page settles it and the plan renews from its original end', async () => {
    const { userId, sessionToken } = await subscribed('declined');
    const bought = await subscriptionOf(sessionToken);

    expect(await advance('366d', true)).toMatchObject({ status: 200, body: { renewed: 0, ended: 0, declined: 1 } });
    expect(await subscriptionOf(sessionToken)).toMatchObject({ status: 'past_due', endDate: bought.endDate });
    expect(await mailsOwed(api.database, 'payment_failed', userId)).toEqual([expect.objectContaining({ amount: 10000, currency: 'usd' })]);
    // Issue 45 (T24): the history shows the charge that failed, on the renewal day, above the one paid.
    const pastDue = await call(api.app, 'POST', '/api/billing/history', { sessionToken });
    const listed = pastDue.body.items as Array<{ kind: string; amount: number }>;
    expect(listed.map((item) => [item.kind, item.amount])).toEqual([
      ['failed', 10000],
      ['charge', 10000],
    ]);
    expect(listed[0]).toMatchObject({ description: 'Renewal payment failed', date: bought.endDate, receiptUrl: null });

    const portal = await call(api.app, 'POST', '/api/billing/portal', { idToken: 'declined' });
    expect(portal).toMatchObject({ status: 200, body: { success: true, url: expect.stringMatching(/^http:\/\/veil\.test\/api\/billing\/portal\/local\/bps_local_/) } });
    const path = new URL(portal.body.url as string).pathname;
    const page = await api.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your renewal payment failed');
    expect(page.body).toContain('Update card and pay $100');

    const paid = await api.app.inject({ method: 'POST', url: `${path}/update`, payload: 'card=4242', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('/account');
    const renewedUntil = new Date(bought.endDate);
    renewedUntil.setUTCFullYear(renewedUntil.getUTCFullYear() + 1);
    expect(await subscriptionOf(sessionToken)).toMatchObject({ status: 'active', endDate: renewedUntil.toISOString() });
    const history = await call(api.app, 'POST', '/api/billing/history', { sessionToken });
    expect((history.body.items as Array<{ kind: string; amount: number }>).map((item) => [item.kind, item.amount])).toEqual([
      ['charge', 10000],
      ['charge', 10000],
    ]);
    expect((await api.app.inject({ method: 'GET', url: path })).body).toContain('paid up');
  });

  test('a past due subscription never settled ends 30 days after its period end', async () => {
    const { sessionToken } = await subscribed('never-settled');
    await advance('366d', true);
    expect(await advance('20d')).toMatchObject({ body: { ended: 0 } });
    expect(await subscriptionOf(sessionToken)).toMatchObject({ status: 'past_due' });
    expect(await advance('15d')).toMatchObject({ body: { ended: 1 } });
    // Issue 45 (T15): it says it ended unpaid, on the day the retries were over (30 days after the renewal).
    const bought = await subscriptionOf(sessionToken);
    expect(bought).toMatchObject({ status: 'cancelled', endedUnpaidAt: new Date(Date.parse(bought.endDate) + 30 * 86_400_000).toISOString() });
    // Nothing failed is listed once it has ended: the history is what was paid.
    const history = await call(api.app, 'POST', '/api/billing/history', { sessionToken });
    expect((history.body.items as Array<{ kind: string }>).map((item) => item.kind)).toEqual(['charge']);
  });

  test('the portal: an unknown link is a 404 JSON; an account that never paid has no portal', async () => {
    expect(await call(api.app, 'GET', '/api/billing/portal/local/bps_local_unknown')).toMatchObject({
      status: 404,
      body: { success: false, code: 'not_found' },
    });
    await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'never-paid' });
    expect(await call(api.app, 'POST', '/api/billing/portal', { idToken: 'never-paid' })).toMatchObject({
      status: 404,
      body: { success: false, code: 'no_subscription' },
    });
  });

  test('a 29 February anniversary renews on 28 February, and on 29 February again in the next leap year', async () => {
    // Move the clock to the next 29 February, noon UTC, and buy then.
    const now = Date.now();
    let year = new Date(now).getUTCFullYear();
    while (!(new Date(Date.UTC(year, 1, 29)).getUTCDate() === 29 && Date.UTC(year, 1, 29, 12) > now)) year += 1;
    const leapDay = Date.UTC(year, 1, 29, 12);
    await advance(`${Math.ceil((leapDay - now) / 1000)}s`);
    const { sessionToken } = await subscribed('leap-day');
    const bought = new Date((await subscriptionOf(sessionToken)).endDate);
    expect([bought.getUTCFullYear(), bought.getUTCMonth(), bought.getUTCDate()]).toEqual([year + 1, 1, 28]);

    await advance('1100d');
    const later = new Date((await subscriptionOf(sessionToken)).endDate);
    // Renewed on 28 February twice, and the next period ends on 29 February of the next leap year.
    expect([later.getUTCFullYear(), later.getUTCMonth(), later.getUTCDate()]).toEqual([year + 4, 1, 29]);
    const history = await call(api.app, 'POST', '/api/billing/history', { sessionToken });
    expect(history.body.items).toHaveLength(4);
  });
});

/**
 * Changing the plan is one edit in contract/plans.ts (issue 33, item 1): with another price, another
 * money-back window and other reminder days, the local checkout page, the charge and its receipt, the
 * e-mails, the refund rule and the reminder sweep all say and do the new terms. The module is replaced
 * here as the edit would change it; nothing else is.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { charges } from '../../server/db/schema';
import type { MessageToSend } from '../../server/domain/customer-messages';
import { renderMail } from '../../server/mail/render';
import { mailsOwed } from '../support/mail-owed';
import { call, createTestApi, type TestApi } from '../support/server-harness';

vi.mock('../../contract/plans', async (importOriginal) => {
  const plans = await importOriginal<typeof import('../../contract/plans')>();
  return { ...plans, PLAN: { ...plans.PLAN, amount: 12_000 }, MONEY_BACK_DAYS: 14, RENEWAL_REMINDER_DAYS: [21, 3] };
});

const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: token }) };
const DAY = 86_400_000;

describe('a plan of $120 a year with a 14-day money-back guarantee and reminders 21 and 3 days ahead', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ driver: 'pglite', verifier, env: { RATE_LIMIT_SCALE: '100' } });
  });
  afterAll(() => api?.close());

  async function subscribe(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const opened = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
    const checkoutPath = new URL(opened.body.url as string).pathname;
    return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string, checkoutPath };
  }
  const mailText = async (message: Record<string, unknown>) => (await renderMail(message as unknown as MessageToSend, { name: 'Ada', email: 'ada@example.com' }, 'http://veil.test')).text;

  test('the local checkout page, the charge, its receipt page and its e-mail state the new price', async () => {
    const { userId, sessionToken, checkoutPath } = await subscribe('pays-120');
    const page = (await api.app.inject({ method: 'GET', url: checkoutPath })).body;
    expect(page).toContain('$120 per year');
    expect(page).toContain(
      'Your plan renews automatically every year at $120 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.',
    );
    expect(page).toContain('Pay $120');
    expect(page).not.toContain('$100');

    await api.app.inject({ method: 'POST', url: `${checkoutPath}/pay` });
    const history = await call(api.app, 'POST', '/api/billing/history', { sessionToken });
    const [charge] = history.body.items as Array<{ amount: number; receiptUrl: string }>;
    expect(charge).toMatchObject({ amount: 12_000, currency: 'usd' });
    const receipt = (await api.app.inject({ method: 'GET', url: new URL(charge!.receiptUrl).pathname })).body;
    expect(receipt).toContain('$120.00');

    const [mail] = await mailsOwed(api.database, 'receipt', userId);
    expect(await mailText(mail!)).toContain('Amount paid: $120.00');
  });

  test('the money-back guarantee runs 14 days, and says so when it has ended', async () => {
    const { userId, sessionToken, checkoutPath } = await subscribe('late-120');
    await api.app.inject({ method: 'POST', url: `${checkoutPath}/pay` });
    const [paid] = await api.database.db.select().from(charges).where(eq(charges.userId, userId));
    const until = (await call(api.app, 'POST', '/api/billing/history', { sessionToken })).body.refundableUntil as string;
    expect(new Date(until).getTime()).toBe(paid!.paidAt.getTime() + 14 * DAY);

    await api.database.db
      .update(charges)
      .set({ paidAt: new Date(Date.now() - 14 * DAY - 60_000) })
      .where(eq(charges.userId, userId));
    expect(await call(api.app, 'POST', '/api/subscription/refund', { idToken: 'late-120' })).toMatchObject({
      status: 409,
      body: {
        code: 'refund_window_closed',
        error: 'The 14-day money-back guarantee has ended for this account: it runs for 14 days from your first payment.',
      },
    });
  });

  test('the reminder sweep reminds 21 days ahead, at the new price', async () => {
    const { userId, checkoutPath } = await subscribe('reminded-120');
    await api.app.inject({ method: 'POST', url: `${checkoutPath}/pay` });
    // 365 days later the renewal is 0-1 days away; 22 days before it, nothing is due yet.
    expect((await call(api.app, 'POST', '/api/dev/billing-clock/advance', { by: '340d' })).status).toBe(200);
    expect(await mailsOwed(api.database, 'renewal_reminder', userId)).toEqual([]);
    expect((await call(api.app, 'POST', '/api/dev/billing-clock/advance', { by: '5d' })).status).toBe(200);
    const [reminder] = await mailsOwed(api.database, 'renewal_reminder', userId);
    // Owed 20 to 21 days before the renewal: the 21-day reminder, whose heading says the days really left.
    expect(reminder).toMatchObject({ daysBefore: 21, daysLeft: expect.any(Number), amount: 12_000 });
    const text = await mailText(reminder!);
    expect(text).toContain(`YOUR PLAN RENEWS IN ${reminder!.daysLeft as number} DAYS`);
    expect(text).toContain('when we will charge $120.00');
  });
});

/**
 * Issue 21: the e-mails a customer gets, read from a real mail server (maildev) the way a person reads an
 * inbox. Each trigger of this issue (a new desktop device, account deletion, auto-renewal off, renewal
 * reminders, plan ending and ended) sends its message once; the billing messages (receipt, refund,
 * payment failed, renewal on) are owed directly and sent by the same worker. Every message has an HTML and
 * a plain-text part, absolute links without tokens, en-US dates and "$100.00" amounts.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { subscriptions } from '../../server/db/schema';
import { MAIL_QUEUE, oweCustomerMessage, type CustomerMessage, type LegacyMessage } from '../../server/domain/customer-messages';
import { newMailCounters, type MailCounters } from '../../server/mail/mail-worker';
import { formatDate } from '../../server/mail/format';
import { signPayload } from '../../server/payments/signature';
import { LOCAL_WEBHOOK_SECRET } from '../support/payments';
import { startTestMailServer, type ReceivedMail, type TestMailServer } from '../support/maildev';
import { describeApi } from '../support/describe-api';
import { call } from '../support/server-harness';

const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: `${token} Lovelace` }) };
const DAY = 86_400_000;

/** Each database's block reads a mail server of its own, started before its API, and its own counters. */
let mail: TestMailServer;
let counters: MailCounters;
const withMailServer = {
  setUp: async () => {
    mail = await startTestMailServer();
    counters = newMailCounters();
    return { env: { SMTP_URL: mail.smtpUrl }, mail: { counters } };
  },
  tearDown: () => mail?.stop(),
};

// Each test's customer is new (the job ids derive from ids that are new too), so tests share one inbox and
// the tables are kept between them.
describeApi('customer e-mail', { layer: 'http', verifier, env: { RATE_LIMIT_SCALE: '100' }, reset: false, ...withMailServer }, (api, driver) => {
  const customer = (name: string) => `${name}-${driver}`;

  async function signIn(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    return { userId: (body.user as { id: string }).id, sessionToken: body.sessionToken as string, email: `${name}@example.com` };
  }

  async function buy(name: string) {
    const user = await signIn(name);
    const checkout = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: user.email });
    const paid = await api.app.inject({ method: 'POST', url: `${new URL(checkout.body.url as string).pathname}/pay` });
    expect(paid.headers.location).toBe('/success');
    const verified = await call(api.app, 'POST', '/api/auth/verify', { sessionToken: user.sessionToken });
    // Paying mails a receipt (issue 20's trigger); the notices below are read without it.
    const [receipt] = await mail.waitForMails(user.email, 1, undefined, isReceipt);
    expect(receipt!.subject).toBe('Your Veil VPN receipt: $100.00');
    return { ...user, endDate: (verified.body.subscription as { endDate: string }).endDate };
  }

  const isReceipt = (received: ReceivedMail) => received.subject.startsWith('Your Veil VPN receipt');
  /** The mails to `email` other than receipts, once `count` of them have arrived. */
  const notices = (email: string, count = 1) => mail.waitForMails(email, count, undefined, (received) => !isReceipt(received));

  const advance = (by: string) => call(api.app, 'POST', '/api/dev/billing-clock/advance', { by });

  /** Waits a little longer than a worker's poll, so a duplicate would have arrived. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));

  function expectBranded(received: ReceivedMail) {
    expect(received.from[0]).toMatchObject({ address: 'no-reply@veil.localhost', name: 'Veil VPN' });
    expect(received.html).toContain('Veil VPN');
    expect(received.html).toContain('#5f3ec4');
    expect(received.text).toContain('Veil VPN is operated by Veil Labs, Inc. Questions? Write to support@example.com.');
    // Every link is absolute, on the product's address or mailto.
    for (const [, href] of received.html.matchAll(/href="([^"]+)"/g)) expect(href).toMatch(/^(http:\/\/veil\.test\/|mailto:)/);
  }

  test('a new desktop device signing in mails its name and time, and a link to revoke it without any token', async () => {
    const name = customer('device');
    const { sessionToken, email } = await signIn(name);
    const handoff = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
    const handoffToken = handoff.body.handoffToken as string;
    const redeemed = await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Ada’s MacBook' });
    expect(redeemed.status).toBe(200);

    const [received] = await mail.waitForMails(email);
    expect(received!.subject).toBe('New sign-in to your Veil VPN account');
    expect(received!.to).toEqual([{ address: email, name: `${name} Lovelace` }]);
    expect(received!.text).toContain(`Hi ${name},`);
    // The device named itself: quoted and attributed, not said in our voice (issue 34).
    expect(received!.text).toContain('Name the device gave itself: “Ada’s MacBook”');
    expect(received!.text).not.toContain('Device: Ada’s MacBook');
    expect(received!.text).toMatch(/Time: \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} (AM|PM) UTC/);
    expect(received!.text).toContain('Not you? Revoke it: http://veil.test/account#devices-title');
    expect(received!.html).toContain('Not you? Revoke it');
    for (const token of [sessionToken, handoffToken, redeemed.body.sessionToken as string]) {
      expect(received!.html).not.toContain(token);
      expect(received!.text).not.toContain(token);
    }
    expectBranded(received!);
  });

  test('deleting the account mails the address it had what was deleted and what is kept', async () => {
    const name = customer('deleted');
    const { sessionToken, userId, email } = await signIn(name);
    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken });
    expect(deleted.status).toBe(200);

    const [received] = await mail.waitForMails(email);
    expect(received!.subject).toBe('Your Veil VPN account was deleted');
    expect(received!.text).toContain(`was deleted on ${formatDate(new Date().toISOString())}, as requested`);
    expect(received!.text).toContain('What was deleted: your account details');
    expect(received!.text).toContain('What we keep, in the words of our privacy policy:\n\nAfter deletion we keep, for a cool-down period of 7 days');
    expectBranded(received!);
  });

  test('a refund claimed just before deletion is still announced, and then its address is gone', async () => {
    const name = customer('refund-then-delete');
    const { sessionToken, userId, email } = await buy(name);
    // Claimed and deleted at once: the refund is made after the account is gone (the job runs later).
    expect((await call(api.app, 'POST', '/api/subscription/refund', { idToken: name })).status).toBe(200);
    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);

    const received = await notices(email, 2);
    expect(received.map((mail) => mail.subject).sort()).toEqual(['Your Veil VPN account was deleted', 'Your Veil VPN refund of $100.00']);
    const refundNotice = received.find((mail) => mail.subject.startsWith('Your Veil VPN refund'))!;
    expect(refundNotice.to).toEqual([{ address: email, name: `${name} Lovelace` }]);
    expect(refundNotice.text).toContain('Amount refunded: $100.00');
    // Sent, its address is nowhere: not in the refund row, not in any job.
    const holding = api.database.statement(
      'address_holders',
      `SELECT (SELECT count(*)::int FROM refunds r WHERE position($1 in r::text) > 0) + (SELECT count(*)::int FROM notice_addresses n WHERE position($1 in n::text) > 0) + (SELECT count(*)::int FROM "${api.database.jobSchema}".job j WHERE position($1 in j::text) > 0)`,
    );
    await expect.poll(async () => (await holding([email]))[0]![0], { timeout: 10_000 }).toBe(0);
  });

  test('messages owed in the old shape (an address, or a device name, in the job: queued before issue 31) are still sent, then their jobs are gone', async () => {
    const name = customer('old-shape');
    const { userId, email } = await signIn(name);
    const gone = `gone-${name}@example.com`;
    const now = new Date().toISOString();
    const oldShapes: Array<[LegacyMessage, string]> = [
      [{ email: gone, name: 'Gone Lovelace', kind: 'account_deleted', deletedAt: now }, `account_deleted:old-${name}`],
      [{ userId, kind: 'new_device', deviceName: 'Old MacBook', signedInAt: now }, `new_device:old-${name}`],
    ];
    for (const [message, key] of oldShapes) expect(await api.jobs.send(api.database.db, MAIL_QUEUE, message, key)).toBe(true);

    const [deleted] = await mail.waitForMails(gone);
    expect(deleted!.subject).toBe('Your Veil VPN account was deleted');
    expect(deleted!.to).toEqual([{ address: gone, name: 'Gone Lovelace' }]);
    const [device] = await mail.waitForMails(email);
    expect(device!.text).toContain('Name the device gave itself: “Old MacBook”');
    const holding = api.database.statement('old_shape_holders', `SELECT count(*)::int FROM "${api.database.jobSchema}".job j WHERE position($1 in j::text) > 0`);
    for (const secret of [gone, 'Old MacBook']) await expect.poll(async () => (await holding([secret]))[0]![0], { timeout: 10_000 }).toBe(0);
  });

  test('turning auto-renewal off mails the end date once', async () => {
    const name = customer('renewal-off');
    const { email, endDate } = await buy(name);
    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: name })).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: name })).status).toBe(200);

    const [received] = await notices(email);
    expect(received!.subject).toBe('Auto-renewal of Veil VPN Premium is off');
    expect(received!.text).toContain(`Veil VPN Premium stays active until ${formatDate(endDate)}; after that it ends`);
    await settle();
    expect(await notices(email)).toHaveLength(1);
  });

  test('auto-renewal turned off at the provider (a webhook, delivered twice) mails once, and the cancel call adds nothing', async () => {
    const name = customer('portal-off');
    const { userId, email, endDate } = await buy(name);
    const [row] = await api.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    const event = (id: string, created: number) => ({
      id,
      type: 'customer.subscription.updated',
      created,
      data: { object: { id: row!.providerSubscriptionId, status: 'active', cancel_at_period_end: true, current_period_end: Math.floor(new Date(endDate).getTime() / 1000), metadata: { userId } } },
    });
    const deliver = (body: object) => {
      const raw = JSON.stringify(body);
      return api.app.inject({ method: 'POST', url: '/api/webhooks/payments', headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, LOCAL_WEBHOOK_SECRET) }, payload: raw });
    };
    const first = event(`evt_portal_${driver}`, row!.providerUpdatedAt + 1);
    expect((await deliver(first)).json()).toMatchObject({ outcome: 'applied' });
    expect((await deliver(first)).json()).toMatchObject({ outcome: 'duplicate' });
    expect((await deliver(event(`evt_portal_again_${driver}`, row!.providerUpdatedAt + 2))).statusCode).toBe(200);
    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: name })).status).toBe(200);

    const [received] = await notices(email);
    expect(received!.subject).toBe('Auto-renewal of Veil VPN Premium is off');
    expect(received!.text).toContain(`stays active until ${formatDate(endDate)}`);
    await settle();
    expect(await notices(email)).toHaveLength(1);
  });

  test('a yearly renewal is reminded 30 and 7 days before, once per period however often the sweep runs', async () => {
    const name = customer('reminded');
    const { email, endDate } = await buy(name);
    /** Whole days from the billing clock's time to the renewal: what the heading must say (issue 34). */
    const daysLeft = (clock: unknown) => Math.ceil((Date.parse(endDate) - Date.parse(clock as string)) / DAY);
    const first = await advance('340d');
    expect(first.status).toBe(200);
    const [thirty] = await notices(email);
    expect(thirty!.subject).toBe(`Veil VPN Premium renews on ${formatDate(endDate)}`);
    // First seen 25 or 26 days before (a year is 365 or 366 days): the heading says so, not "30".
    expect(daysLeft(first.body.now)).toBeLessThan(30);
    expect(thirty!.text).toContain(`YOUR PLAN RENEWS IN ${daysLeft(first.body.now)} DAYS`);
    expect(thirty!.text).toContain(`renews automatically on ${formatDate(endDate)}, when we will charge $100.00 to your card on file.`);
    expect(thirty!.text).toContain('Manage auto-renewal: http://veil.test/account');
    expect(thirty!.text).toContain('To stop the renewal, turn off auto-renewal on your account page before that date');
    expectBranded(thirty!);

    // The sweep again (the clock moved by nothing, and the daily job): no second 30-day reminder.
    expect((await advance('0d')).status).toBe(200);
    const later = await advance('20d');
    expect(later.status).toBe(200);
    expect((await advance('0d')).status).toBe(200);
    const both = await notices(email, 2);
    expect(both[1]!.text).toContain(`YOUR PLAN RENEWS IN ${daysLeft(later.body.now)} DAYS`);
    await settle();
    expect(await notices(email)).toHaveLength(2);

    // After the renewal, the next period's reminders are new ones (a year later).
    const renewed = await advance('345d');
    expect(renewed.body).toMatchObject({ renewed: 1 });
    const three = await notices(email, 3);
    const nextRenewal = new Date(endDate);
    nextRenewal.setUTCFullYear(nextRenewal.getUTCFullYear() + 1);
    expect(three[2]!.subject).toBe(`Veil VPN Premium renews on ${formatDate(nextRenewal.toISOString())}`);
  });

  test('with auto-renewal off, the plan ending in 7 days and its end are mailed', async () => {
    const name = customer('ending');
    const { email, endDate } = await buy(name);
    expect((await call(api.app, 'POST', '/api/subscription/cancel', { idToken: name })).status).toBe(200);
    await notices(email);
    expect((await advance('360d')).status).toBe(200);
    const [, ending] = await notices(email, 2);
    expect(ending!.subject).toBe(`Veil VPN Premium ends on ${formatDate(endDate)}`);
    expect(ending!.text).toContain('Auto-renewal is off, so Veil VPN Premium ends on');
    expect(ending!.text).toContain('Keep my plan: http://veil.test/account');

    expect((await advance('6d')).body).toMatchObject({ ended: 1 });
    const [, , ended] = await notices(email, 3);
    expect(ended!.subject).toBe('Veil VPN Premium has ended');
    expect(ended!.text).toContain(`Veil VPN Premium ended on ${formatDate(endDate)}, as auto-renewal was off.`);
    expect(ended!.text).toContain('Subscribe again: http://veil.test/subscribe');
  });

  test('a declined renewal mails the day to pay by and that the VPN keeps working until then; unpaid by then, the plan ends and a mail says so (issue 45, N7 and T15)', async () => {
    const name = customer('unpaid');
    const { email, sessionToken, endDate } = await buy(name);
    const declined = await call(api.app, 'POST', '/api/dev/billing-clock/advance', { by: '366d', decline: true });
    // The clock is shared by this file's customers: others' renewals may fall due (and be declined) too.
    expect(declined.body.declined).toBeGreaterThanOrEqual(1);
    const failed = (await mail.waitForMails(email, 1, undefined, (each) => each.subject === 'Your Veil VPN renewal payment failed'))[0]!;
    const payBy = formatDate(new Date(Date.parse(endDate) + 30 * DAY).toISOString());
    expect(failed.text).toContain(`Update your payment method by ${payBy} to keep your plan`);
    expect(failed.text).toContain('Your VPN keeps working while we try the payment again.');
    expect(failed.text).toContain(`Pay by: ${payBy}`);

    const ended = await advance('31d');
    expect(ended.body.ended).toBeGreaterThanOrEqual(1);
    const [unpaid] = await mail.waitForMails(email, 1, undefined, (each) => each.subject.startsWith('Veil VPN Premium has ended'));
    expect(unpaid!.subject).toBe('Veil VPN Premium has ended: the renewal was not paid');
    // It ends on the day to pay by (the local clock ends it as the retries end).
    expect(unpaid!.text).toContain(`The renewal payment for Veil VPN Premium due on ${formatDate(endDate)} was not paid, so your plan ended on ${payBy}`);
    expect(unpaid!.text).toContain('your VPN stopped connecting');
    expect(unpaid!.text).toContain('Subscribe again: http://veil.test/subscribe');
    expectBranded(unpaid!);
    // The account page's card says the same (verify's subscription): ended, and why.
    const verified = await call(api.app, 'POST', '/api/auth/verify', { sessionToken });
    expect(verified.body.subscription).toMatchObject({ status: 'cancelled', endedUnpaidAt: expect.any(String) });
    // Once: the clock running on owes nothing more.
    expect((await advance('1d')).status).toBe(200);
    await settle();
    expect(await mail.waitForMails(email, 1, undefined, (each) => each.subject.startsWith('Veil VPN Premium has ended'))).toHaveLength(1);
  });

  test('the billing messages (receipt, refund, payment failed, renewal on) render and arrive through the worker', async () => {
    const name = customer('billing');
    const { userId, email } = await signIn(name);
    const messages: Array<[CustomerMessage, string, string[]]> = [
      [
        { userId, kind: 'receipt', amount: 10_000, currency: 'usd', paidAt: '2026-03-03T10:00:00Z', description: 'Veil VPN Premium (1 year)', nextRenewal: '2027-03-03T10:00:00Z' },
        'Your Veil VPN receipt: $100.00',
        ['Amount paid: $100.00', 'Date: March 3, 2026', 'Plan: Veil VPN Premium (1 year)', 'Next renewal: March 3, 2027', 'View billing history: http://veil.test/account'],
      ],
      [
        { userId, kind: 'refund', amount: 10_000, currency: 'usd', refundedAt: '2026-03-10T10:00:00Z' },
        'Your Veil VPN refund of $100.00',
        [
          'Amount refunded: $100.00',
          'Refunded on: March 10, 2026',
          'Veil VPN Premium ended with the refund, and your VPN access ended with it.',
          'The money returns to your card within 5–7 business days',
        ],
      ],
      [
        { userId, kind: 'payment_failed', amount: 10_000, currency: 'usd', failedAt: '2027-03-03T10:00:00Z' },
        'Your Veil VPN renewal payment failed',
        [
          'Your payment of $100.00 for Veil VPN Premium on March 3, 2027 did not go through.',
          'What happens next:',
          // Issue 45 (N7): the pay-by day (30 days on) and what happens to the VPN.
          'Update your payment method by April 2, 2027 to keep your plan',
          'Your VPN keeps working while we try the payment again.',
          'Update payment method: http://veil.test/account',
        ],
      ],
      [
        { userId, kind: 'renewal_on', renewalDate: '2027-03-03T10:00:00Z' },
        'Auto-renewal of Veil VPN Premium is back on',
        ['renews automatically on March 3, 2027'],
      ],
    ];
    for (const [message, , ] of messages) {
      expect(await oweCustomerMessage(api.database.db, api.jobs, message, `test:${userId}`)).toBe(true);
      // The same kind and subject again (a webhook delivered twice) owes nothing more.
      expect(await oweCustomerMessage(api.database.db, api.jobs, message, `test:${userId}`)).toBe(false);
    }
    const received = await mail.waitForMails(email, messages.length);
    for (const [, subject, lines] of messages) {
      const found = received.find((each) => each.subject === subject);
      expect(found, subject).toBeDefined();
      for (const line of lines) expect(found!.text).toContain(line);
      expectBranded(found!);
    }
    await settle();
    expect(await mail.waitForMails(email)).toHaveLength(messages.length);
    expect(counters.failedForGood).toBe(0);
  });

  test('an account disabled by Veil support is told what stopped, about renewal, and how to reach support (issue 45, T13)', async () => {
    const name = customer('disabled');
    const { userId, email } = await signIn(name);
    await oweCustomerMessage(api.database.db, api.jobs, { userId, kind: 'account_disabled', disabledAt: '2026-11-25T14:05:00Z', renewalTurnedOff: true }, `test:${userId}`);
    const [received] = await mail.waitForMails(email, 1);
    expect(received!.subject).toBe('Your Veil VPN account was disabled');
    for (const line of [
      'Veil support disabled your Veil VPN account on November 25, 2026. You cannot sign in, every device was signed out, and your desktop apps and WireGuard configurations no longer connect.',
      'Auto-renewal was turned off with it: you will not be charged again.',
      'If you think this is a mistake, reply to this e-mail or write to support@example.com.',
      'Contact support: http://veil.test/support',
    ]) {
      expect(received!.text).toContain(line);
    }
    expectBranded(received!);
  });

  test('a message whose account is gone before it is sent is skipped, not retried', async () => {
    const before = counters.skipped;
    await oweCustomerMessage(api.database.db, api.jobs, { userId: 'usr_never_existed', kind: 'renewal_on', renewalDate: new Date(Date.now() + DAY).toISOString() }, 'gone');
    await expect.poll(() => counters.skipped, { timeout: 10_000 }).toBe(before + 1);
  });
});

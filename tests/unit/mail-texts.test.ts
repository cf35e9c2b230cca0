/**
 * Issue 34, the e-mails as a customer reads them at 390 px: a greeting with the customer's own name (never
 * the address's local part), a viewport so a phone lays the message out at its width, the reminder's real
 * number of days, the refund saying access ended and when the money arrives (the page's words), and a
 * device's self-chosen name quoted rather than said in our voice.
 */
import { describe, expect, test } from 'vitest';
import { REFUND_ARRIVES_WITHIN } from '../../contract/refund-timing';
import { composeMessage } from '../../server/mail/messages';
import { greetingFor, renderMail } from '../../server/mail/render';

const URL = 'https://veil.example';

describe('greetings', () => {
  test('the customer\'s first name; a neutral greeting when the name is missing or only the address', () => {
    expect(greetingFor({ name: 'Ada Lovelace', email: 'ada.lovelace.t4.22942@example.com' })).toBe('Hi Ada,');
    expect(greetingFor({ name: 'ada.lovelace.t4.22942', email: 'ada.lovelace.t4.22942@example.com' })).toBe('Hello,');
    expect(greetingFor({ name: 'Ada.Lovelace.T4.22942', email: 'ada.lovelace.t4.22942@example.com' })).toBe('Hello,');
    expect(greetingFor({ name: 'ada@example.com', email: 'ada@example.com' })).toBe('Hello,');
    expect(greetingFor({ name: '  ', email: 'ada@example.com' })).toBe('Hello,');
  });

  test('the sent mail greets by name in both parts, and has a viewport for phones', async () => {
    const message = { kind: 'renewal_on', renewalDate: '2027-03-03T10:00:00Z' } as const;
    const named = await renderMail(message, { name: 'Ada Lovelace', email: 'ada.lovelace.t4.22942@example.com' }, URL);
    expect(named.text).toContain('Hi Ada,');
    expect(named.html).toContain('Hi Ada,');
    expect(named.html).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1"/);
    const unnamed = await renderMail(message, { name: 'ada.lovelace.t4.22942', email: 'ada.lovelace.t4.22942@example.com' }, URL);
    expect(unnamed.text).toContain('Hello,');
    expect(unnamed.text).not.toContain('ada.lovelace');
  });
});

test('every mail names itself in <title> (its subject) and underlines its links (issue 45, T22)', async () => {
  const mail = await renderMail({ kind: 'renewal_on', renewalDate: '2027-03-03T10:00:00Z' }, { name: 'Ada Lovelace', email: 'ada@example.com' }, URL);
  expect(mail.html).toContain(`<title>${mail.subject}</title>`);
  const links = [...mail.html.matchAll(/<a [^>]*>/g)].map((match) => match[0]).filter((tag) => !tag.includes('padding'));
  expect(links.length).toBeGreaterThanOrEqual(2);
  for (const tag of links) expect(tag, tag).toMatch(/text-decoration:\s*underline/);
});

test('the plan-ending heading states the real date; the renewal-back-on e-mail states the amount (issue 45, T14 and T21)', () => {
  const ending = composeMessage({ kind: 'plan_ending', endDate: '2027-03-03T10:00:00Z' }, URL);
  expect(ending.heading).toBe('Your plan ends on March 3, 2027');
  expect(ending.preview).not.toMatch(/in \d+ days/);
  const on = composeMessage({ kind: 'renewal_on', renewalDate: '2027-03-03T10:00:00Z' }, URL);
  expect(on.paragraphs.join(' ')).toContain('renews automatically on March 3, 2027, when we will charge $100.00');
  expect(on.details).toContainEqual(['Amount', '$100.00']);
});

test('a declined renewal names the day to pay by; a plan that ends unpaid says so (issue 45, N7 and T15)', () => {
  const failed = composeMessage({ kind: 'payment_failed', amount: 10_000, currency: 'usd', failedAt: '2027-03-03T10:00:00Z' }, URL);
  expect(failed.paragraphs.join(' ')).toContain('Update your payment method by April 2, 2027 to keep your plan');
  expect(failed.details).toContainEqual(['Pay by', 'April 2, 2027']);
  const ended = composeMessage({ kind: 'plan_ended_unpaid', failedOn: '2027-03-03T10:00:00Z', endedAt: '2027-04-02T10:00:00Z' }, URL);
  expect(ended.subject).toBe('Veil VPN Premium has ended: the renewal was not paid');
  expect(ended.paragraphs[0]).toBe(
    'The renewal payment for Veil VPN Premium due on March 3, 2027 was not paid, so your plan ended on April 2, 2027 and your VPN stopped connecting. You have not been charged.',
  );
  expect(ended.action?.url).toBe(`${URL}/subscribe`);
});

describe('what the messages say', () => {
  const reminder = (daysLeft?: number) =>
    composeMessage(
      { kind: 'renewal_reminder', daysBefore: 30, ...(daysLeft === undefined ? {} : { daysLeft }), renewalDate: '2027-03-03T10:00:00Z', amount: 10_000, currency: 'usd', card: null },
      URL,
    );

  test('the renewal reminder\'s heading says the days there really are', () => {
    expect(reminder(25).heading).toBe('Your plan renews in 25 days');
    expect(reminder(1).heading).toBe('Your plan renews in 1 day');
    // Owed before the days were kept: the date, never a number that may be wrong.
    expect(reminder().heading).toBe('Your plan renews on March 3, 2027');
  });

  test('the refund e-mail says access ended and when the money arrives, in the page\'s words', () => {
    const refund = composeMessage({ kind: 'refund', amount: 10_000, currency: 'usd', refundedAt: '2026-03-10T10:00:00Z', reason: 'money_back' }, URL);
    expect(REFUND_ARRIVES_WITHIN).toBe('5–7 business days');
    expect(refund.paragraphs).toContain('Veil VPN Premium ended with the refund, and your VPN access ended with it. You can subscribe again at any time.');
    expect(refund.paragraphs).toContain('The money returns to your card within 5–7 business days, depending on your bank.');
    const second = composeMessage({ kind: 'refund', amount: 10_000, currency: 'usd', refundedAt: '2026-03-10T10:00:00Z', reason: 'second_subscription' }, URL);
    expect(second.paragraphs.join(' ')).toContain('your first subscription and your VPN access are unchanged');
    expect(second.paragraphs.join(' ')).not.toContain('ended');
  });

  test('the new-device e-mail quotes the name the device gave itself', () => {
    const notice = composeMessage({ kind: 'new_device', deviceName: 'Your own MacBook, nothing to do', signedInAt: '2026-11-25T14:05:00Z' }, URL);
    expect(notice.preview).toMatch(/^A device calling itself “Your own MacBook, nothing to do” signed in on /);
    expect(notice.details).toContainEqual(['Name the device gave itself', '“Your own MacBook, nothing to do”']);
    expect(notice.details?.map(([, value]) => value)).not.toContain('Your own MacBook, nothing to do');
  });
});

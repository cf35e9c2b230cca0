/**
 * Issue 21 §5-6: the account-deleted e-mail says what is kept in the privacy policy's own words, and the
 * policy lists every e-mail the product sends. (The e-mails themselves are read from maildev in
 * tests/server/customer-mail.test.ts.)
 */
import { describe, expect, test } from 'vitest';
import { privacySections } from '../../src/content/privacy';
import { KEPT_AFTER_DELETION } from '../../server/mail/messages';

const policy = privacySections.flatMap((section) => [...section.paragraphs, ...(section.bullets ?? [])]).join('\n');

describe('mail and the privacy policy', () => {
  test('the account-deleted e-mail quotes the policy on what a deleted account leaves behind', () => {
    for (const sentence of KEPT_AFTER_DELETION) expect(policy).toContain(sentence);
  });

  test('the policy lists each e-mail and why it is sent', () => {
    const section = privacySections.find((each) => each.heading === 'E-mails we send you');
    expect(section?.paragraphs[0]).toContain('only to the address of your account (shown on your account page)');
    const bullets = (section?.bullets ?? []).join('\n');
    for (const message of ['a receipt for every payment', 'renewal reminders 30 and 7 days before', 'turn auto-renewal off or back on', '7 days before a plan without auto-renewal ends', 'a renewal payment fails', 'a new desktop device signs in', 'when you delete your account']) {
      expect(bullets).toContain(message);
    }
  });
});

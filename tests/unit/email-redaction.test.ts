/**
 * Issue 46, item 12: the one redaction (server/observability/redaction.ts) replaces every form of e-mail
 * address RFC 5321 (and RFC 6531, for addresses in UTF-8) lets a mailbox have, whole: nothing of the local
 * part or the domain is left beside the placeholder.
 */
import { describe, expect, test } from 'vitest';
import { redactText } from '../../server/observability/redaction';

/** Each: why it is an address, and the address. */
const ADDRESSES: ReadonlyArray<[string, string]> = [
  ['plain', 'ada@example.com'],
  ['a +tag', 'ada+vpn@example.com'],
  ['dots in the local part', 'ada.love.lace@example.com'],
  ['an apostrophe', "o'brien@example.com"],
  ['every other atext character', "a!#$%&'*+/=?^_`{|}~-z@example.com"],
  ['a subdomain', 'ada@mail.eu.example.co.uk'],
  ['a hyphenated domain', 'ada@my-mail.example-host.com'],
  ['upper case', 'ADA@EXAMPLE.COM'],
  ['a quoted local part with a space', '"john doe"@example.com'],
  ['a quoted local part with an at sign and an escaped quote', '"john@\\"doe\\""@example.com'],
  ['a quoted local part that is empty of specials', '"ada"@example.com'],
  ['non-ASCII in the local part', 'josé.müller@example.com'],
  ['non-ASCII in the domain', 'ada@bücher.example'],
  ['a script other than Latin', '用户@例子.广告'],
  ['Cyrillic', 'почта@пример.рф'],
  ['an IPv4 literal domain', 'ada@[192.0.2.1]'],
  ['an IPv6 literal domain', 'ada@[IPv6:2001:db8::1]'],
  ['a general address literal', 'ada@[x-tag:opaque]'],
  ['a numeric local part', '1234567890@example.com'],
  ['a punycode domain', 'ada@xn--bcher-kva.example'],
];

describe('e-mail addresses in any form RFC 5321 allows are redacted whole', () => {
  test.each(ADDRESSES)('%s: %s', (_why, address) => {
    for (const text of [address, `sent to ${address}.`, `<${address}>`, `(${address})`, `mailto:${address}`]) {
      // The address, and only the address, is replaced: nothing of it is left, nothing around it is lost.
      expect(redactText(text), text).toBe(text.replace(address, '[email]'));
    }
  });

  test('what is no address stays as it was (package paths in a stack, versions, route patterns)', () => {
    for (const text of [
      'at file:///app/node_modules/@fastify/otel/index.js:12:3',
      "Cannot find package '@opentelemetry/api'",
      'pg-boss@12.38.0',
      '/api/billing/receipts/:id',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

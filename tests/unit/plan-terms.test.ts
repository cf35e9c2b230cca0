/**
 * The plan's terms live in contract/plans.ts alone (issue 33, item 1): no other production file writes a
 * price, a billing interval, the money-back guarantee's length or the reminder days, in code, text or
 * comment. A new text reads the plan (PLAN, MONEY_BACK_DAYS, RENEWAL_REMINDER_DAYS and the formatters;
 * the website through brand.price / brand.moneyBack), so changing the plan is one edit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const PRODUCTION = ['src', 'server', 'contract', 'machines'];
const HOME_OF_THE_TERMS = 'contract/plans.ts';

/** What a stray term looks like. */
const STRAY: Array<[kind: string, pattern: RegExp]> = [
  ['a price', /\$\d{2,}|\$\d\.\d\d|amount\w*: 10_?000\b|\b10_?000 = |amountUsd|perMonthUsd/],
  ['a billing interval', /\b(yearly|annual|annually|monthly)\b|\b(per|a|every|each|another|one|1) year\b/i],
  ['the money-back guarantee length', /\b\d+[- ]day money-back|money-back\W+\w*\W*\d+ days|within \d+ days of (your|the account's) first payment|inside \d+ days/i],
  ['the reminder days', /\b\d+ (and \d+ )?days before|ends in \d+ days|\d+-day reminder/i],
];

/** Lines that say a year or a month about something other than the plan, each with why. */
const NOT_THE_PLAN: RegExp[] = [
  /a year's cache/, // server/http/spa.ts: hashed assets' HTTP cache lifetime
  /A hundred years/, // server/http/dev-routes.ts: the billing clock's longest move
];

function productionFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : productionFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.gen.ts') ? [path] : [];
  });
}

describe('the plan terms (contract/plans.ts)', () => {
  test('no production file outside contract/plans.ts writes a price, interval, guarantee length or reminder day', () => {
    const strays: string[] = [];
    for (const file of PRODUCTION.flatMap(productionFiles)) {
      if (relative(root, join(root, file)) === HOME_OF_THE_TERMS) continue;
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (NOT_THE_PLAN.some((allowed) => allowed.test(line))) return;
          for (const [kind, pattern] of STRAY) {
            if (pattern.test(line)) strays.push(`${file}:${index + 1}: ${kind}: ${line.trim().slice(0, 140)}`);
          }
        });
    }
    expect(strays, `read it from ${HOME_OF_THE_TERMS} instead:\n${strays.join('\n')}`).toEqual([]);
  });

  test('the search finds each kind of stray term', () => {
    const samples: Record<string, string> = {
      'a price': "summary: '$100 per year'",
      'a billing interval': 'renews automatically every year',
      'the money-back guarantee length': "'30-day money-back guarantee'",
      'the reminder days': 'renewal reminders 30 and 7 days before',
    };
    for (const [kind, pattern] of STRAY) expect(pattern.test(samples[kind]!), kind).toBe(true);
  });
});

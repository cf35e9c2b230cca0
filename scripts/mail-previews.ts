/**
 * `npm run mail:previews [folder]`: renders every e-mail (sample data) to PNGs in Chromium at phone
 * (390 px) and desktop (1280 px) widths, in a light and a dark mail client's style, plus each plain-text
 * part, so a person can look at them all at once (issue 21). Writes to `folder` (default: a temp folder).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { MessageToSend } from '../server/domain/customer-messages.ts';
import { renderMail } from '../server/mail/render.tsx';
import { resolveChromiumPath } from '../tests/support/chromium-path.ts';

const soon = '2027-03-03T10:00:00Z';
const samples: MessageToSend[] = [
  { kind: 'receipt', amount: 10_000, currency: 'usd', paidAt: '2026-03-03T10:00:00Z', description: 'Veil VPN Premium (1 year)', nextRenewal: soon },
  { kind: 'refund', amount: 10_000, currency: 'usd', refundedAt: '2026-03-10T10:00:00Z' },
  { kind: 'payment_failed', amount: 10_000, currency: 'usd', failedAt: soon },
  { kind: 'renewal_off', endDate: soon },
  { kind: 'renewal_on', renewalDate: soon },
  { kind: 'renewal_reminder', daysBefore: 30, daysLeft: 30, renewalDate: soon, amount: 10_000, currency: 'usd', card: 'Visa ending in 4242' },
  { kind: 'plan_ending', endDate: soon },
  { kind: 'plan_ended', endDate: soon },
  { kind: 'plan_ended_unpaid', failedOn: soon, endedAt: soon },
  { kind: 'new_device', deviceName: 'Ada’s MacBook Pro', signedInAt: '2026-11-25T14:05:00Z' },
  { kind: 'account_deleted', deletedAt: '2026-11-25T14:05:00Z' },
  { kind: 'account_disabled', disabledAt: '2026-11-25T14:05:00Z', renewalTurnedOff: true },
];

const folder = resolve(process.argv[2] ?? mkdtempSync(join(tmpdir(), 'veil-mail-previews-')));
mkdirSync(folder, { recursive: true });
const browser = await chromium.launch({ executablePath: await resolveChromiumPath(), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const message of samples) {
    const mail = await renderMail(message, { name: 'Ada Lovelace', email: 'ada@example.com' }, 'https://veil.example');
    writeFileSync(join(folder, `${message.kind}.txt`), `Subject: ${mail.subject}\n\n${mail.text}`);
    for (const width of [390, 1280]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme });
        await page.setContent(mail.html);
        await page.screenshot({ path: join(folder, `${message.kind}-${width}-${colorScheme}.png`), fullPage: true });
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
}
console.log(`mail previews in ${folder}`);

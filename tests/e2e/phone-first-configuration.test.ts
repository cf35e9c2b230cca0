/**
 * Issue 45's "done when", as a new customer does it on a phone (390 x 844, an Android phone's browser): the
 * home page, sign-in, the local checkout's Pay, and then a WireGuard configuration imported from its file in
 * no more than four interactions after payment. Every click or tap after Pay is counted; the downloaded
 * file is read by `wg-quick strip` (wireguard-tools, which CI installs for the relay proof) and its private
 * key's public half, by `wg pubkey`, is the key the account page lists.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { saveScreenshot } from '../support/browser';
import { useWholeStack } from '../support/e2e-suite';
import { completeEmulatorSignIn } from '../support/emulator-ui';

const e2e = useWholeStack();

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const PHONE = { width: 390, height: 844 };
/** The ceiling: home page -> paid -> a configuration imported, in at most 4 interactions after payment. */
const MOST_INTERACTIONS_AFTER_PAYMENT = 4;

/** What `wg` makes of a configuration file: wg-quick's fields stripped, the rest as wg(8) reads it. */
function readWithWg(config: string): { stripped: string; publicKey: string } {
  const dir = mkdtempSync(join(tmpdir(), 'veil-phone-conf-'));
  try {
    // wg-quick takes the interface's name from the file's: at most 15 characters of [A-Za-z0-9_=+.-].
    const file = join(dir, 'veil0.conf');
    writeFileSync(file, config, { mode: 0o600 });
    const stripped = execFileSync('wg-quick', ['strip', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const privateKey = /^PrivateKey = (\S+)$/m.exec(stripped)?.[1] ?? '';
    const publicKey = execFileSync('wg', ['pubkey'], { input: `${privateKey}\n`, encoding: 'utf8' }).trim();
    return { stripped, publicKey };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a new customer on a phone (issue 45, done when)', () => {
  test('home page -> paid -> a WireGuard configuration imported from its file in at most 4 interactions after payment', async () => {
    const email = 'phone.first@example.com';
    const { context } = await e2e.newContext({ viewport: PHONE, userAgent: ANDROID_CHROME, isMobile: true, hasTouch: true, acceptDownloads: true });
    const page = await context.newPage();

    // Before payment: the home page, its way to the plan, sign-in and the checkout (not counted).
    await page.goto(`${e2e.stack.url}/`);
    await saveScreenshot(page, 'phone-first-1-home', { fullPage: false });
    await page.getByRole('link', { name: /Subscribe|Get Premium|Get Started/ }).first().click();
    await page.waitForURL(`${e2e.stack.url}/subscribe`);
    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await completeEmulatorSignIn(await popup, email);
    // Signed in, /subscribe offers the plan (the phone's header keeps the account in its menu).
    await page.getByText(`Signed in as ${email}`).waitFor();
    await saveScreenshot(page, 'phone-first-2-subscribe', { fullPage: false });
    await page.getByRole('button', { name: 'Subscribe Now' }).click();
    await page.waitForURL(/\/api\/checkout\/local\//);
    await saveScreenshot(page, 'phone-first-3-checkout', { fullPage: false });
    await page.getByRole('button', { name: 'Pay $100' }).click();
    await page.waitForURL(`${e2e.stack.url}/success`);
    await page.getByText('Your subscription is active').waitFor({ timeout: 30_000 });
    await saveScreenshot(page, 'phone-first-4-success', { fullPage: false });

    // After payment, every interaction counted: each is one tap on what the screen shows.
    let interactions = 0;
    const tap = async (target: Locator) => {
      interactions += 1;
      await target.scrollIntoViewIfNeeded();
      await target.tap();
    };
    await tap(page.getByRole('link', { name: 'Manage Account' }));
    const devices = page.getByRole('region', { name: 'Devices' });
    await tap(devices.getByRole('button', { name: 'Add a device' }));
    const dialog = page.getByRole('dialog', { name: 'Add a device' });
    // Preselected from the phone's own system, named after it, the least-loaded server chosen.
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Device name' }).inputValue()).toBe('Android phone');
    await saveScreenshot(page, 'phone-first-5-add-device', { fullPage: false });
    await tap(dialog.getByRole('button', { name: 'Add device' }));
    const download = dialog.getByRole('link', { name: 'Download .conf' });
    await download.waitFor();
    await saveScreenshot(page, 'phone-first-6-configuration', { fullPage: false });
    const downloaded = page.waitForEvent('download');
    await tap(download);
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe('Android-phone.conf');
    // The pooled browser runs in another process: the file is saved here to be read.
    const saved = join(mkdtempSync(join(tmpdir(), 'veil-phone-download-')), file.suggestedFilename());
    await file.saveAs(saved);
    const config = readFileSync(saved, 'utf8');
    rmSync(dirname(saved), { recursive: true, force: true });

    expect(interactions, 'interactions after payment').toBeLessThanOrEqual(MOST_INTERACTIONS_AFTER_PAYMENT);

    // The file is a WireGuard configuration: wg reads it, and its key is the one the account page lists.
    const { stripped, publicKey } = readWithWg(config);
    expect(stripped).toMatch(/^\[Interface\]\nPrivateKey = \S{43}=\n/);
    expect(stripped).toMatch(/\[Peer\]\nPublicKey = \S{43}=\nAllowedIPs = 0\.0\.0\.0\/0, ::\/0\nEndpoint = \S+:\d+\n/);
    expect(config).toMatch(/^Address = 10\.\d+\.\d+\.\d+\/32, [0-9a-f:]+\/128$/m);
    expect(config).toMatch(/^DNS = /m);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await devices.getByTestId('device-public-key').textContent()) ?? '').toContain(publicKey);
    await saveScreenshot(page, 'phone-first-7-device-listed', { fullPage: false });
  });
});

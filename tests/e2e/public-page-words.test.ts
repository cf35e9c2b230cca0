/**
 * Issue 34, the public pages as four customers read them, at 390 and 1280 px: the renewal disclosure where
 * the price first appears, pricing copy said once per card, /success not claiming a payment to a
 * signed-out visitor, no "Sign In" in the header of the sign-in page, /cancel on a phone offering no app
 * download, and /download leading with the visitor's system and speaking to Linux users.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { saveScreenshot, transitionsSettled, waitForHydration } from '../support/browser';
import { ENCRYPTION_FEATURE, ENCRYPTION_SENTENCE } from '../../src/content/encryption';
import { WIREGUARD_ELSEWHERE } from '../../src/content/wireguard-elsewhere';
import { useWholeStack } from '../support/e2e-suite';

const DISCLOSURE =
  'Your plan renews automatically every year at $100 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.';
const USER_AGENTS = {
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
};
const WIDTHS = [
  { label: 'phone', width: 390, height: 844 },
  { label: 'desktop', width: 1280, height: 800 },
];

// The run's pooled stack (tests/support/stack-pool.ts): these pages need nothing of their own.
const e2e = useWholeStack();

async function open(path: string, width: number, height: number, userAgent?: string): Promise<Page> {
  const { context } = await e2e.newContext({ viewport: { width, height }, ...(userAgent ? { userAgent } : {}) });
  const page = await context.newPage();
  await page.goto(`${e2e.stack.url}${path}`);
  await waitForHydration(page);
  return page;
}
const words = (page: Page, selector = 'main') => page.locator(selector).innerText();
/** The header's account area has settled (its invisible placeholder is gone): the session is known. */
const sessionSettled = (page: Page) => page.waitForFunction(() => document.querySelector('header [inert]') === null);

describe.each(WIDTHS)('public pages at $width px', ({ width, height }) => {
  test('the home pricing card: the price once, the true monthly figure, no "Best value", and the renewal disclosure', async () => {
    const page = await open('/', width, height);
    const card = page.locator('section[aria-labelledby="pricing-title"]');
    const text = await card.innerText();
    expect(text.match(/per year/g)).toHaveLength(1);
    expect(text).toContain('About $8.34 per month');
    expect(text).not.toMatch(/less than|Best value|Just \$/);
    expect(text).toContain(DISCLOSURE);
    expect(await card.getByText(DISCLOSURE).isVisible()).toBe(true);
    await page.context().close();
  });

  test('signed-out /subscribe says the plan renews where it shows the price', async () => {
    const page = await open('/subscribe', width, height);
    await page.getByText('Sign In to Continue').waitFor();
    const text = await words(page);
    expect(text).toContain('About $8.34 per month');
    expect(text).toContain(DISCLOSURE);
    expect(text.indexOf('$100')).toBeLessThan(text.indexOf(DISCLOSURE));
    await page.context().close();
  });

  test('a signed-out visitor on /success is not told a payment succeeded', async () => {
    const page = await open('/success', width, height);
    await page.getByText('What\'s Next').waitFor();
    // The session has settled (signed out), so the lead is final.
    await sessionSettled(page);
    const text = await words(page);
    expect(text).not.toContain('Your payment was successful');
    expect(text).toContain('Sign in with the account you paid with to see your subscription.');
    await page.context().close();
  });

  test('/signin has no "Sign In" button in its header', async () => {
    const page = await open('/signin', width, height);
    await page.getByRole('button', { name: 'Continue with Google' }).waitFor();
    await sessionSettled(page);
    if (width < 992) await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Sign In', exact: true }).count()).toBe(0);
    // Elsewhere it is there.
    await page.goto(`${e2e.stack.url}/support`);
    await waitForHydration(page);
    if (width < 992) await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign In', exact: true }).first().waitFor();
    await page.context().close();
  });

  test('/download leads with the visitor\'s system; Linux and routers are told to use a WireGuard configuration from the account page (issue 45 item 5)', async () => {
    const windows = await open('/download', width, height, USER_AGENTS.windows);
    const first = windows.getByRole('region').first();
    await expect.poll(() => first.getAttribute('id')).toBe('windows');
    expect(await first.innerText()).toMatch(/your system/i);
    expect(await windows.getByText('On Linux? Connect with WireGuard').count()).toBe(0);
    // Every visitor finds the way for Linux and routers.
    const wireguard = windows.getByRole('region', { name: 'Linux, routers and other devices' });
    expect(await wireguard.innerText()).toContain(WIREGUARD_ELSEWHERE);
    expect(await wireguard.getByRole('link', { name: 'Add a device on your account page' }).getAttribute('href')).toBe('/account');
    await windows.context().close();

    const linux = await open('/download', width, height, USER_AGENTS.linux);
    const told = linux.getByRole('alert');
    await told.getByText('On Linux? Connect with WireGuard').waitFor();
    expect(await told.innerText()).toContain(`Android. ${WIREGUARD_ELSEWHERE}`);
    expect(await words(linux)).not.toMatch(/no app for Linux|your system/i);
    await transitionsSettled(linux);
    await saveScreenshot(linux, `words-download-linux-${width}`, { fullPage: true });
    await linux.context().close();
  });

  test('the home page and the FAQ say the one sentence about encryption; the pricing lists say its short form (issue 45 item 4)', async () => {
    const home = await open('/', width, height);
    const text = await words(home);
    expect(text).toContain(ENCRYPTION_SENTENCE);
    expect(text).toContain(ENCRYPTION_FEATURE);
    expect(text).not.toMatch(/Military Grade AES|AES-256 encryption with IKEv2/);
    await home.context().close();
    const support = await open('/support', width, height);
    const question = support.getByRole('button', { name: 'What encryption do you use?' });
    await question.click();
    await support.getByText(ENCRYPTION_SENTENCE, { exact: false }).waitFor();
    const linux = support.getByRole('button', { name: 'Can I use it on Linux or a router?' });
    await linux.click();
    await support.getByText(WIREGUARD_ELSEWHERE, { exact: false }).waitFor();
    await transitionsSettled(support);
    await saveScreenshot(support, `words-support-linux-${width}`, { fullPage: false });
    await support.context().close();
    const cancel = await open('/cancel', width, height);
    expect(await words(cancel)).toContain(ENCRYPTION_FEATURE);
    await cancel.context().close();
  });
});

test('/cancel on a phone offers to try again, and no app download', async () => {
  const page = await open('/cancel', 390, 844, USER_AGENTS.iphone);
  await page.getByRole('link', { name: 'Try Again' }).waitFor();
  const text = await words(page);
  expect(text).not.toMatch(/Download/);
  expect(text).toContain('$100 per year, about $8.34 per month');
  await page.context().close();
});

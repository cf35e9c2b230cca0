/**
 * Sign-in, session and start-up end to end: real Chromium, the real Firebase SDK against the real Auth
 * emulator, the real API on PGlite. Only Google's api.js loader is answered by the harness.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newIsolatedContext, saveScreenshot, type PageProblems } from '../support/browser';
import { startStack, type RunningStack } from '../support/stack';
import { wipeEmulatorUsers } from '../support/auth-emulator';

const emulatorHost = inject('e2eAuthEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ FIREBASE_AUTH_EMULATOR_HOST: emulatorHost }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Completes the emulator's sign-in popup as a new account. */
async function completeEmulatorPopup(popup: Page, email: string, name = 'Ada Lovelace') {
  await popup.waitForLoadState();
  await popup.locator('#add-account-button button').click();
  await popup.locator('#email-input').fill(email);
  await popup.locator('#display-name-input').fill(name);
  await popup.locator('#sign-in').click();
}

async function signInWithGooglePopup(context: BrowserContext, page: Page, email: string) {
  const popupPromise = context.waitForEvent('page');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  const popup = await popupPromise;
  await completeEmulatorPopup(popup, email);
}

describe('sign-in', () => {
  let context: BrowserContext;
  let problems: PageProblems;

  test('a new Google user signs in through the popup and lands on /subscribe', async () => {
    await wipeEmulatorUsers(emulatorUrl);
    ({ context, problems } = await newIsolatedContext(browser, {}, { ownOrigins: [stack.url] }));
    const page = await context.newPage();
    await page.goto(`${stack.url}/signin`);
    await signInWithGooglePopup(context, page, 'new.user@example.com');
    await page.waitForURL(`${stack.url}/subscribe`);
    await page.getByText('new.user@example.com').first().waitFor();
    await page.getByRole('button', { name: 'Subscribe Now' }).waitFor();
    await saveScreenshot(page, 'signin-google-new-user-subscribe');
    expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(problems.consoleErrors).toEqual([]);
  });
});

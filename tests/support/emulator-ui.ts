/** Driving the Auth emulator's sign-in page and our header in end-to-end tests. */
import type { BrowserContext, Page } from 'playwright-core';

/** Completes the emulator's sign-in page (popup or full-page redirect) with an existing or a new account. */
export async function completeEmulatorSignIn(authPage: Page, email: string, name = 'Ada Lovelace') {
  await authPage.waitForLoadState();
  await authPage.locator('#add-account-button button').waitFor();
  // The address exactly: `hasText` matches a part, so 'leaving@example.com' would pick another file's
  // 'almost.leaving@example.com' from the run's shared emulator and sign in as that account.
  const existing = authPage.locator('li.js-reuse-account', {
    has: authPage.locator('.mdc-list-item__secondary-text').getByText(email, { exact: true }),
  });
  if (await existing.count()) {
    await existing.first().click();
    return;
  }
  // Pressed from the keyboard: on a phone-sized window the emulator's own page lets its list of earlier accounts
  // (every test's, a long list late in a run) lie over this button, and a mouse click then lands on an account.
  await authPage.locator('#add-account-button button').focus();
  await authPage.keyboard.press('Enter');
  await authPage.locator('#email-input').fill(email);
  await authPage.locator('#display-name-input').fill(name);
  await authPage.locator('#sign-in').click();
}

/** Clicks "Continue with <provider>" on /signin and completes the popup. */
export async function signInWithPopup(context: BrowserContext, page: Page, email: string, provider: 'Google' | 'Apple' = 'Google') {
  const popup = context.waitForEvent('page');
  await page.getByRole('button', { name: `Continue with ${provider}` }).click();
  await completeEmulatorSignIn(await popup, email);
}

/** The header's account button, named by the e-mail it shows (and "Premium" when active). */
export const accountMenu = (page: Page, email: string) => page.getByRole('button', { name: email }).first();

export const storageKey = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

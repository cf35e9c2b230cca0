/**
 * Issue 11 items 1, 3 and 4, in real Chromium against the whole stack: a network blip at page load does not
 * sign anyone out, a session refused (401) in an open tab sends the customer to sign in again with a toast,
 * and sign-out works offline. And on the home page, which hydrates without the router (issue 25), the
 * signed-in header and the sign-out work as on the other pages.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, saveScreenshot } from '../support/browser';
import { useWholeStack } from '../support/e2e-suite';
import { accountMenu, signInWithPopup, storageKey } from '../support/emulator-ui';

const e2e = useWholeStack();

const NOTICE = "We can't reach Veil VPN right now. Retrying…";
const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('a network blip at page load', () => {
  test('keeps the session, shows the page at once with a quiet notice, and signs in when the API answers', async () => {
    const email = 'blip@example.com';
    const { page } = await e2e.signedInContext(email);
    const sessionToken = await storageKey(page, 'sessionToken');
    expect(sessionToken).toBeTruthy();

    // The verify call never reaches the API (offline, DNS, a dropped connection).
    let blocked = 0;
    await page.route('**/api/auth/verify', (route) => {
      blocked += 1;
      return route.abort('internetdisconnected');
    });
    await page.goto(`${e2e.stack.url}/`);
    // The public page is there, not a spinner, while the session waits.
    await page.getByRole('heading', { name: 'Secure Your Digital Freedom' }).waitFor();
    await page.getByText(NOTICE).waitFor();
    expect(await page.getByText('Starting').count()).toBe(0);
    await expect.poll(() => blocked, { timeout: 10_000 }).toBeGreaterThan(1); // retried
    expect(await storageKey(page, 'sessionToken')).toBe(sessionToken);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeViolations(page), `home page with the notice (${colorScheme})`).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await saveScreenshot(page, 'resilience-1-unreachable-notice');

    await page.unroute('**/api/auth/verify');
    await accountMenu(page, email).waitFor({ timeout: 20_000 });
    expect(await page.getByText(NOTICE).count()).toBe(0);
    expect(await storageKey(page, 'sessionToken')).toBe(sessionToken);
  });

  test('a 5xx is not a refusal either: the account page waits for the session and then shows it', async () => {
    const email = 'five.hundred@example.com';
    const { page } = await e2e.signedInContext(email);
    let failures = 2;
    await page.route('**/api/auth/verify', (route) =>
      failures-- > 0
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"success":false,"error":"Service unavailable"}' })
        : route.continue(),
    );
    await page.goto(`${e2e.stack.url}/account`);
    await page.getByRole('heading', { name: 'My Account' }).waitFor({ timeout: 20_000 });
    expect(pathOf(page)).toBe('/account');
    await accountMenu(page, email).waitFor();
  });

  test('a refusal (401) at page load still clears the stored session', async () => {
    const { page } = await e2e.signedInContext('refused.at.load@example.com');
    const sessionToken = (await storageKey(page, 'sessionToken'))!;
    await revoke(sessionToken);
    await page.goto(`${e2e.stack.url}/account`);
    await expect.poll(() => pathOf(page)).toBe('/signin');
    expect(await storageKey(page, 'sessionToken')).toBeNull();
  });
});

async function revoke(sessionToken: string) {
  const response = await fetch(`${e2e.stack.url}/api/auth/signout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionToken }),
  });
  expect(response.status).toBe(200);
}

describe('a session revoked while the tab is open', () => {
  test('Refresh Status answers 401: "Session expired", signed out, and back to /signin?redirect=/account', async () => {
    const email = 'revoked@example.com';
    const { page } = await e2e.signedInContext(email);
    // The devices list loads on its own; revoking while its call is in flight lets that call meet the 401
    // first, and the page leaves before the click (a CI run failed that way). Without a subscription the
    // Devices card is not shown (issue 22), so wait for the call itself.
    const devicesLoaded = page.waitForResponse((response) => response.url().includes('/api/auth/devices'));
    await page.goto(`${e2e.stack.url}/account`);
    const card = page.getByRole('region', { name: 'Subscription Status' });
    await card.getByRole('button', { name: 'Refresh Status' }).waitFor();
    await devicesLoaded;
    await revoke((await storageKey(page, 'sessionToken'))!);

    await card.getByRole('button', { name: 'Refresh Status' }).click();
    await page.getByText('Session expired').waitFor();
    await page.getByText('Please sign in again.').waitFor();
    await expect.poll(() => pathOf(page)).toBe('/signin');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/account');
    expect(await storageKey(page, 'sessionToken')).toBeNull();
    expect(await accountMenu(page, email).count()).toBe(0);
    await saveScreenshot(page, 'resilience-2-session-expired');
  });

  test('the devices list answers 401 on the account page: the same, without a second failure toast', async () => {
    const { page } = await e2e.signedInContext('revoked.devices@example.com');
    const sessionToken = (await storageKey(page, 'sessionToken'))!;
    // The page the sign-in ended on may still be checking the new session: a blank page first, so that its
    // verify cannot stand for /account's below and revoke the session before /account's own verify (which
    // would then meet the 401 first, a sign-out at load without the toast; it failed that way on a busy machine).
    await page.goto('about:blank');
    // The page loads with a live session; the devices call is the first to meet the revocation. The page
    // asks for both as it starts (issue 32 item 4), so the devices call waits until verify has answered.
    const verified = page.waitForResponse((response) => response.url().endsWith('/api/auth/verify') && response.ok());
    await page.route('**/api/auth/devices', async (route) => {
      await verified;
      await revoke(sessionToken);
      await route.continue();
    });
    await page.goto(`${e2e.stack.url}/account`);
    await page.getByText('Session expired').waitFor();
    await expect.poll(() => pathOf(page)).toBe('/signin');
    expect(await page.getByText('Could not load your devices').count()).toBe(0);
  });
});

describe('sign-out', () => {
  test('works when neither the API nor the provider code can be reached: toast, signed out', async () => {
    const email = 'unreachable.sign.out@example.com';
    const { page } = await e2e.signedInContext(email);
    // A fresh load: Firebase is not in the page, so the provider sign-out would have to download it.
    await page.goto(`${e2e.stack.url}/account`);
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.route('**/assets/firebase-auth-*.js', (route) => route.abort('internetdisconnected'));
    await accountMenu(page, email).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.getByText('Signed out successfully').waitFor({ timeout: 10_000 });
    expect(await page.getByText('Sign out failed').count()).toBe(0);
    for (const key of ['sessionToken', 'token', 'google_access_token']) expect(await storageKey(page, key)).toBeNull();
    expect(await accountMenu(page, email).count()).toBe(0);
    await saveScreenshot(page, 'resilience-3-unreachable-sign-out');
  });

  test('works offline: the local session is cleared and the header offers Sign In', async () => {
    const email = 'offline.sign.out@example.com';
    const { context, page } = await e2e.signedInContext(email);
    await page.goto(`${e2e.stack.url}/account`);
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    // The account menu is an island whose code arrives after the page's heading: offline before it has
    // arrived, there would be no menu to sign out from (seen once on a busy machine).
    await accountMenu(page, email).waitFor();
    await context.setOffline(true);
    await accountMenu(page, email).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    // (The toast's own code may not download offline; what the customer sees is the signed-out header.)
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor({ timeout: 10_000 });
    expect(await accountMenu(page, email).count()).toBe(0);
    for (const key of ['sessionToken', 'token', 'google_access_token']) expect(await storageKey(page, key)).toBeNull();
    await context.setOffline(false);
  });
});

describe('authentication state changes (spec §4 "Session restore")', () => {
  test('signing in in one tab signs in the other open tab', async () => {
    const email = 'second.tab@example.com';
    const { context } = await e2e.newContext();
    const other = await context.newPage();
    await other.goto(`${e2e.stack.url}/subscribe`);
    await other.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    const page = await context.newPage();
    await page.goto(`${e2e.stack.url}/signin`);
    await signInWithPopup(context, page, email);
    await accountMenu(page, email).waitFor();
    // The other tab never loaded Firebase: the stored session token tells it.
    await accountMenu(other, email).waitFor();
    await other.getByRole('button', { name: 'Subscribe Now' }).waitFor();
    await saveScreenshot(other, 'resilience-4-other-tab-signed-in');
  });
});

describe('the home page, hydrated without the router (issue 25)', () => {
  test('shows the signed-in header once the session loads, and signs out in place with the toast', async () => {
    const email = 'home.sign.out@example.com';
    const { page } = await e2e.signedInContext(email);
    await page.goto(`${e2e.stack.url}/`);
    await accountMenu(page, email).click();
    expect(await page.getByRole('menuitem', { name: 'My Account' }).getAttribute('href')).toBe('/account');
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.getByText('Signed out successfully').waitFor({ timeout: 10_000 });
    expect(pathOf(page)).toBe('/');
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    expect(await accountMenu(page, email).count()).toBe(0);
    for (const key of ['sessionToken', 'token', 'google_access_token']) expect(await storageKey(page, key)).toBeNull();
    expect(await axeViolations(page), 'home page with the sign-out toast').toEqual([]);
  });
});

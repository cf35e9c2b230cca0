/**
 * The rest of issue 45's walk (item 8), in Chromium at 390x844 and 1280x800, light and dark, with axe at zero
 * and a screenshot of each state (test-results/screenshots/rest-*.png): the hero's two buttons of one width
 * (note 26); the signed-out /subscribe's buttons with one verb (note 11); bold text as bright as headings
 * in dark mode (note 24); the account's card buttons following one system (note 15); the phone menu holding
 * the account's links, no menu inside a menu (note 21); account activity a page at a time with "Show more"
 * (T25); the data export's summary beside the downloaded file (T16).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, saveScreenshot, transitionsSettled, waitForHydration } from '../support/browser';
import { useWholeStack } from '../support/e2e-suite';
import { storageKey } from '../support/emulator-ui';
import { sendSubscriptionEvent, userIdOf } from '../support/payments';

const e2e = useWholeStack();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** axe in light and dark, with a screenshot of each: what is on screen now. */
async function lookAt(page: Page, name: string, { fullPage = false } = {}) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect.poll(() => page.getAttribute('html', 'data-mantine-color-scheme')).toBe(colorScheme);
    await transitionsSettled(page);
    await saveScreenshot(page, `rest-${name}-${page.viewportSize()?.width ?? 0}-${colorScheme}`, { fullPage });
    expect(await axeViolations(page), `${name} at ${page.viewportSize()?.width}px (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The colour text is drawn in. */
const colorOf = (page: Page, selector: string) => page.locator(selector).first().evaluate((element) => getComputedStyle(element).color);

/** In dark mode as in light, what is bold is as bright as the page's headings (note 24). */
async function boldAsHeadings(page: Page, heading: string, bold: string[]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect.poll(() => page.getAttribute('html', 'data-mantine-color-scheme')).toBe(colorScheme);
    await transitionsSettled(page);
    const headingColor = await colorOf(page, heading);
    for (const selector of bold) expect(await colorOf(page, selector), `${selector} (${colorScheme})`).toBe(headingColor);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

interface CardButton {
  card: string;
  label: string;
  width: number;
  height: number;
  /** The content width of the box it sits in. */
  room: number;
  /** Filled (white words on colour) or outlined (a border): the two looks the system allows. */
  look: 'filled' | 'outlined' | 'other';
}

/** Every button of the account's cards, outside a list's rows (a row's buttons are the row's). */
const cardButtons = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main section[aria-labelledby]')].flatMap((section) =>
      [...section.querySelectorAll<HTMLElement>('.mantine-Button-root')]
        .filter((button) => !button.closest('li'))
        .map((button) => {
          const style = getComputedStyle(button);
          const parent = button.parentElement!;
          const parentStyle = getComputedStyle(parent);
          const box = button.getBoundingClientRect();
          const filled = style.color === 'rgb(255, 255, 255)' && style.backgroundColor !== 'rgba(0, 0, 0, 0)';
          const outlined = parseFloat(style.borderTopWidth) >= 1 && style.borderTopColor !== 'rgba(0, 0, 0, 0)' && !filled;
          return {
            card: document.getElementById(section.getAttribute('aria-labelledby')!)?.textContent ?? '',
            label: button.textContent ?? '',
            width: box.width,
            height: box.height,
            room: parent.clientWidth - parseFloat(parentStyle.paddingLeft) - parseFloat(parentStyle.paddingRight),
            look: filled ? 'filled' : outlined ? 'outlined' : 'other',
          } satisfies CardButton;
        }),
    ),
  );

describe('the rest of the walk (issue 45 item 8)', () => {
  test('home: the hero buttons are one width, stacked on a phone, side by side on a desktop (note 26)', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context } = await e2e.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${e2e.stack.url}/`);
      const download = (await page.getByRole('link', { name: 'Download Now' }).boundingBox())!;
      const learnMore = (await page.getByRole('link', { name: /^Learn More/ }).boundingBox())!;
      expect(Math.abs(download.width - learnMore.width), `widths ${download.width} and ${learnMore.width}`).toBeLessThanOrEqual(1);
      expect(Math.abs(download.height - learnMore.height)).toBeLessThanOrEqual(1);
      if (viewport === PHONE) expect(learnMore.y).toBeGreaterThan(download.y + download.height - 1);
      else expect(Math.abs(learnMore.y - download.y)).toBeLessThanOrEqual(1);
      await lookAt(page, 'home-hero');
    }
  });

  test('signed-out /subscribe: "Sign in with" Google and Apple (note 11); the price and the brand as bright as the headings (note 24)', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context } = await e2e.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${e2e.stack.url}/subscribe`);
      await page.getByRole('heading', { name: 'Sign In to Continue' }).waitFor();
      await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
      await page.getByRole('button', { name: 'Sign in with Apple' }).waitFor();
      expect(await page.getByRole('button', { name: /^Continue with/ }).count()).toBe(0);
      await boldAsHeadings(page, 'main h1', ['main [class*="amount"]', 'header a[aria-label$=" home"]']);
      await lookAt(page, 'subscribe-signed-out');
    }
  });

  test('the account page: one system for card buttons (note 15), bold as bright as headings (note 24), activity paged (T25), the export summarised (T16)', async () => {
    const email = 'rest.walker@example.com';
    const { page } = await e2e.signedIn(email, { viewport: DESKTOP });
    const sessionToken = (await storageKey(page, 'sessionToken'))!;
    const userId = await userIdOf(e2e.stack.url, sessionToken);
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'past_due' })).status).toBe(200);
    // Twelve entries of activity: six desktop apps signed in, then signed out.
    for (let n = 1; n <= 6; n += 1) {
      const handoff = await page.request.post(`${e2e.stack.url}/api/auth/handoff`, { data: { sessionToken } });
      const { handoffToken } = (await handoff.json()) as { handoffToken: string };
      const redeemed = await page.request.post(`${e2e.stack.url}/api/auth/handoff/redeem`, { data: { handoffToken, deviceName: `Desktop ${n}` } });
      expect(redeemed.status()).toBe(200);
    }
    const { devices } = (await (await page.request.post(`${e2e.stack.url}/api/auth/devices`, { data: { sessionToken } })).json()) as { devices: Array<{ id: string }> };
    for (const device of devices) {
      expect((await page.request.post(`${e2e.stack.url}/api/auth/devices/revoke`, { data: { sessionToken, deviceId: device.id } })).status()).toBe(200);
    }

    await page.goto(`${e2e.stack.url}/account`);
    await waitForHydration(page);
    const activity = page.getByRole('region', { name: 'Account activity' });
    await activity.getByRole('listitem').first().waitFor();
    expect(await activity.getByRole('listitem').count()).toBe(10);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.getByRole('region', { name: 'Subscription Status' }).getByText('Past Due').waitFor();
      // Every card drawn before the buttons are read: the cards load apart, and a busy run once read the page
      // before the last card's "Delete Account" was there.
      const labels = ['Sign Out', 'Update payment method', 'Refresh Status', 'Add a device', 'Show more', 'Download your data', 'Contact Support', 'Delete Account'];
      const cardButton = page.locator('main section[aria-labelledby] .mantine-Button-root');
      for (const label of labels) await cardButton.filter({ hasText: new RegExp(`^${label}$`) }).first().waitFor();
      await transitionsSettled(page);
      const buttons = await cardButtons(page);
      expect(buttons.map((button) => button.label)).toEqual(expect.arrayContaining(labels));
      for (const button of buttons) {
        const where = `${button.card}: ${button.label} at ${viewport.width}px`;
        expect(button.look, `${where} is filled or outlined`).not.toBe('other');
        expect(button.height, `${where}: one height`).toBeCloseTo(buttons[0]!.height, 0);
        if (viewport === PHONE) expect(button.width, `${where}: the whole width of its box (${button.room} px)`).toBeGreaterThanOrEqual(button.room - 1);
        else expect(button.width, `${where}: as wide as its words`).toBeLessThan(button.room - 1);
      }
      await boldAsHeadings(page, 'main h1', [`main section p:text-is("${email}")`, 'main section p:text-is("Veil VPN Premium")']);
      await lookAt(page, 'account-buttons', { fullPage: true });
    }

    // "Show more" brings the two older entries, and goes once there are no more (T25).
    await activity.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => activity.getByRole('listitem').count()).toBe(12);
    expect(await activity.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    expect(await activity.getByRole('listitem').last().textContent()).toContain('Signed in on a new device: Desktop 1');

    // The export: the file, and its summary beside the button, with the toast on screen (T16).
    await page.setViewportSize(PHONE);
    const yourData = page.getByRole('region', { name: 'Your data' });
    const download = page.waitForEvent('download');
    await yourData.getByRole('button', { name: 'Download your data' }).click();
    const file = await download;
    const day = new Date().toISOString().slice(0, 10);
    expect(file.suggestedFilename()).toBe(`veil-vpn-data-${day}.json`);
    const saved = join(mkdtempSync(join(tmpdir(), 'veil-export-')), file.suggestedFilename());
    await file.saveAs(saved);
    const copy = JSON.parse(readFileSync(saved, 'utf8')) as { summary: string[] };
    expect(copy.summary[0]).toBe(`Account: ${email}, signed up ${day}.`);
    const summary = yourData.getByRole('status');
    await summary.getByText(`Downloaded veil-vpn-data-${day}.json. In short:`).waitFor();
    expect(await summary.getByRole('listitem').allTextContents()).toEqual(copy.summary);
    await page.getByText('Your file was downloaded.').waitFor();
    await yourData.scrollIntoViewIfNeeded();
    await lookAt(page, 'your-data-summary');
  });

  test('the phone menu holds the account: who is signed in and its links, no menu inside the menu (note 21)', async () => {
    const email = 'rest.phone@example.com';
    const { page } = await e2e.signedIn(email, { viewport: DESKTOP });
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await menu.getByText('Signed in as').waitFor();
    expect(await menu.getByText(email, { exact: true }).isVisible()).toBe(true);
    const links = page.getByRole('navigation', { name: 'Account' });
    expect(await links.getByRole('link').allTextContents()).toEqual(['My Account', 'Subscribe']);
    expect(await links.getByRole('button', { name: 'Sign Out' }).isVisible()).toBe(true);
    expect(await menu.locator('[aria-haspopup]').count(), 'no menu inside the menu').toBe(0);
    await lookAt(page, 'phone-menu');
    await links.getByRole('link', { name: 'My Account' }).click();
    await page.waitForURL(`${e2e.stack.url}/account`);
    // The menu closes on a choice.
    await expect.poll(() => menu.count()).toBe(0);
  });
});

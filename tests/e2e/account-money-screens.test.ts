/**
 * Issue 34's account-page screen items as a customer sees them in Chromium, at 390 and 1280 px, light and
 * dark: the turn-off confirmation's buttons whole, cards as tall as what they say, a past-due card that leads
 * with the way to pay and the day to pay by (and whose notice is not the heaviest thing on the page), a
 * refunded subscription that says it ended, and a lapsed identity-provider session that says why and comes
 * back to /account. The words themselves are pinned in tests/components/account-page.test.tsx.
 */
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { saveScreenshot, transitionsSettled } from '../support/browser';
import { geometryProblems } from '../support/geometry';
import { useWholeStack } from '../support/e2e-suite';
import { storageKey } from '../support/emulator-ui';
import { sendSubscriptionEvent, userIdOf } from '../support/payments';
import { subscribeThroughLocalCheckout } from '../support/local-checkout';

const e2e = useWholeStack();

const VARIANTS = [
  { width: 390, height: 844, colorScheme: 'light' },
  { width: 390, height: 844, colorScheme: 'dark' },
  { width: 1280, height: 800, colorScheme: 'light' },
  { width: 1280, height: 800, colorScheme: 'dark' },
] as const;
type Variant = (typeof VARIANTS)[number];

async function show(page: Page, { width, height, colorScheme }: Variant) {
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme });
  await expect.poll(() => page.getAttribute('html', 'data-mantine-color-scheme')).toBe(colorScheme);
  await transitionsSettled(page); // before anything is measured
}

/** Buttons whose label is cut (its text wider than the room it has). */
async function clippedLabels(scope: Locator): Promise<string[]> {
  return scope.locator('button').evaluateAll((buttons) =>
    buttons
      .map((button) => button.querySelector('.mantine-Button-label') ?? button)
      .filter((label) => label.scrollWidth > label.clientWidth + 1)
      .map((label) => label.textContent ?? ''),
  );
}

/** Cards taller than what they hold (stretched to a neighbour's height), by their headings. */
async function stretchedCards(page: Page): Promise<string[]> {
  return page.locator('main section[aria-labelledby]').evaluateAll((cards) =>
    cards
      .filter((card) => {
        const last = card.lastElementChild;
        if (!last) return false;
        const gap = card.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom - parseFloat(getComputedStyle(card).paddingBottom);
        return gap > 4;
      })
      .map((card) => card.querySelector('h2')?.textContent ?? '?'),
  );
}

/** WCAG contrast of an element's own background against the page's: how heavy a block looks. */
async function weightOnPage(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const luminance = (color: string) => {
      const [r, g, b] = color.match(/[\d.]+/g)!.slice(0, 3).map((channel) => {
        const value = Number(channel) / 255;
        return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const opaque = (start: Element | null): string => {
      for (let at = start; at; at = at.parentElement) {
        const color = getComputedStyle(at).backgroundColor;
        const alpha = color.startsWith('rgba') ? Number(color.match(/[\d.]+/g)![3]) : 1;
        if (alpha > 0.5) return color;
      }
      return getComputedStyle(document.body).backgroundColor;
    };
    const own = luminance(opaque(node));
    const page = luminance(getComputedStyle(document.body).backgroundColor);
    return (Math.max(own, page) + 0.05) / (Math.min(own, page) + 0.05);
  });
}

async function accountWith(email: string) {
  const signedIn = await e2e.signedInContext(email);
  const userId = await userIdOf(e2e.stack.url, (await storageKey(signedIn.page, 'sessionToken'))!);
  return { ...signedIn, userId };
}

describe('the account page at 390 and 1280 px, light and dark (issue 34)', () => {
  test('turn-off dialog buttons whole, no stretched card, past due leads with the way to pay, refunded says ended', async () => {
    const { page, userId } = await accountWith('screens.of.money@example.com');
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'active' })).status).toBe(200);
    await page.goto(`${e2e.stack.url}/account`);
    const card = page.getByRole('region', { name: 'Subscription Status' });
    await card.getByText('Active', { exact: true }).waitFor();

    for (const variant of VARIANTS) {
      await show(page, variant);
      const name = `${variant.width}-${variant.colorScheme}`;
      expect(await stretchedCards(page), `stretched cards at ${name}`).toEqual([]);
      await card.getByRole('button', { name: 'Turn Off Auto-Renewal' }).click();
      const dialog = page.getByRole('dialog', { name: 'Turn off auto-renewal?' });
      await dialog.getByRole('button', { name: 'Keep Auto-Renewal' }).waitFor();
      await transitionsSettled(page);
      expect(await clippedLabels(dialog), `clipped dialog buttons at ${name}`).toEqual([]);
      // From 36em the two buttons share one row, as every two-button dialog does.
      if (variant.width >= 576) expect(new Set(await dialog.getByRole('button', { name: /Auto-Renewal/ }).evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)))).size).toBe(1);
      await saveScreenshot(page, `money-turn-off-dialog-${name}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Keep Auto-Renewal' }).click();
      await dialog.waitFor({ state: 'detached' });
    }

    // A declined renewal five days ago.
    const failedOn = new Date(Date.now() - 5 * 86_400_000);
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'past_due', periodEnd: failedOn })).status).toBe(200);
    await card.getByRole('button', { name: 'Refresh Status' }).click();
    await card.getByText('Past Due', { exact: true }).waitFor();
    const payBy = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' }).format(
      new Date(failedOn.getTime() + 30 * 86_400_000),
    );
    for (const variant of VARIANTS) {
      await show(page, variant);
      const name = `${variant.width}-${variant.colorScheme}`;
      await card.getByText(`Update your payment method by ${payBy} to keep your plan`, { exact: false }).waitFor();
      const buttons = await card.getByRole('button').allTextContents();
      expect(buttons[0], `the way to pay first at ${name}`).toBe('Update payment method');
      expect(await card.getByRole('link', { name: 'Subscribe Now' }).count()).toBe(0);
      expect(await card.getByText(/Ended on/).count()).toBe(0);
      // The notice is a tint, lighter than the button it leads to: not the heaviest block on the page.
      const notice = card.getByRole('alert');
      const button = card.getByRole('button', { name: 'Update payment method' });
      expect(await weightOnPage(notice), `past-due notice vs its button at ${name}`).toBeLessThan(await weightOnPage(button));
      expect(await weightOnPage(notice), `past-due notice at ${name}`).toBeLessThan(1.5);
      expect(await stretchedCards(page), `stretched cards at ${name}`).toEqual([]);
      await saveScreenshot(page, `money-past-due-${name}`);
    }

    // Refunded: Stripe leaves the paid year's end and the renewal flag on a cancelled subscription. Paid first: a
    // past-due one that ends reads "the renewal was not paid" (issue 45, T15; tests/e2e/money-truth.test.ts).
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'active' })).status).toBe(200);
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'canceled', cancelAtPeriodEnd: false })).status).toBe(200);
    await card.getByRole('button', { name: 'Refresh Status' }).click();
    await card.getByText('Cancelled', { exact: true }).waitFor();
    for (const variant of VARIANTS) {
      await show(page, variant);
      const name = `${variant.width}-${variant.colorScheme}`;
      await card.getByText('Ended', { exact: true }).waitFor();
      expect(await card.getByText('Next Billing').count()).toBe(0);
      expect(await card.getByText('Auto-Renewal', { exact: true }).count()).toBe(0);
      expect(await card.getByText('Active - automatically renews each period').count()).toBe(0);
      await saveScreenshot(page, `money-refunded-${name}`, { fullPage: false });
    }
  });

  test('a lapsed identity-provider session on Turn Off Auto-Renewal says why and comes back to /account', async () => {
    const { page, userId } = await accountWith('lapsed.provider@example.com');
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'active' })).status).toBe(200);
    await page.goto(`${e2e.stack.url}/account`);
    const card = page.getByRole('region', { name: 'Subscription Status' });
    await card.getByText('Active', { exact: true }).waitFor();
    // The provider's session lapses (its stored sign-in is gone) while the API session still holds.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const request = indexedDB.deleteDatabase('firebaseLocalStorageDb');
          request.onsuccess = () => resolve();
          request.onerror = () => reject(request.error);
          request.onblocked = () => reject(new Error('blocked'));
        }),
    );
    await card.getByRole('button', { name: 'Turn Off Auto-Renewal' }).click();
    await page.getByRole('dialog', { name: 'Turn off auto-renewal?' }).getByRole('button', { name: 'Turn Off Auto-Renewal' }).click();
    await page.getByText('Session expired').waitFor();
    await page.getByText('Please sign in again.').waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/signin');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/account');
    await saveScreenshot(page, 'money-lapsed-provider-session', { fullPage: false });
  });

  test('inside the money-back window the delete dialog offers Cancel and Refund first, which opens the refund', async () => {
    const { page } = await accountWith('week.one.leaver@example.com');
    await subscribeThroughLocalCheckout(page, e2e.stack.url);
    await page.goto(`${e2e.stack.url}/account`);
    // The guarantee is known once the billing history has loaded.
    await page.getByRole('region', { name: 'Billing history' }).getByRole('button', { name: 'Cancel and refund' }).waitFor();

    const dialog = page.getByRole('dialog', { name: 'Are you absolutely sure?' });
    for (const variant of VARIANTS) {
      await show(page, variant);
      const name = `${variant.width}-${variant.colorScheme}`;
      await page.getByRole('button', { name: 'Delete Account', exact: true }).click();
      await dialog.getByText('You can still get your money back').waitFor();
      expect(await dialog.getByText(/is not refunded/).count(), name).toBe(0);
      const buttons = (await dialog.getByRole('button').allTextContents()).filter((text) => text.trim() !== '');
      expect(buttons, name).toEqual(['Cancel', 'Cancel and Refund instead', 'Delete Account Permanently']);
      expect(await clippedLabels(dialog), `clipped dialog buttons at ${name}`).toEqual([]);
      await saveScreenshot(page, `money-delete-dialog-refund-first-${name}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
    }

    await page.getByRole('button', { name: 'Delete Account', exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel and Refund instead' }).click();
    const refund = page.getByRole('dialog', { name: 'Cancel and get a refund?' });
    await refund.waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    // Issue 45 (T26): the refund dialog's buttons follow every dialog's system: on a phone one full-width button
    // per row, the confirming one last; on a desktop one row, right-aligned. Its geometry as every dialog's.
    for (const variant of VARIANTS) {
      await show(page, variant);
      const name = `${variant.width}-${variant.colorScheme}`;
      await saveScreenshot(page, `money-refund-dialog-${name}`, { fullPage: false });
      const [keep, confirm] = [await refund.getByRole('button', { name: 'Keep My Subscription' }).boundingBox(), await refund.getByRole('button', { name: 'Cancel and Refund' }).boundingBox()];
      if (variant.width === 390) {
        expect(confirm!.y, name).toBeGreaterThan(keep!.y);
        expect(Math.round(confirm!.width), name).toBe(Math.round(keep!.width));
      } else {
        expect(Math.round(confirm!.y), name).toBe(Math.round(keep!.y));
        expect(confirm!.x, name).toBeGreaterThan(keep!.x);
      }
      expect(await geometryProblems(page, { primaryAction: 'Cancel and Refund' }), name).toEqual([]);
    }
  });
});

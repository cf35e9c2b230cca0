/**
 * Smoke test of the public website in a real Chromium against the production build served by the API:
 * every public route renders its key texts at phone and desktop widths, in light and dark colour schemes,
 * with no console error, no failed request to our own origin and no axe-core violation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser, newIsolatedContext, saveScreenshot } from '../support/browser';
import { startStack, type RunningStack } from '../support/stack';

const PUBLIC_PAGES = [
  { path: '/', name: 'home', texts: ['Secure Your Digital Freedom', 'Ultimate Privacy Protection', 'Lightning Fast', 'Global Access'] },
  { path: '/support', name: 'support', texts: ['Setup & Installation', 'Technical Support'] },
  { path: '/privacy', name: 'privacy', texts: ['Privacy Policy', 'October 9, 2025'] },
  { path: '/terms', name: 'terms', texts: ['Terms of Service', 'October 9, 2025'] },
  { path: '/signin', name: 'signin', texts: ['Continue with Google', 'Continue with Apple'] },
  { path: '/success', name: 'success', texts: ['Welcome to Veil VPN Premium!', "What's Next"] },
  { path: '/cancel', name: 'cancel', texts: ['Payment Cancelled', '$100 per year, less than $8.33 per month'] },
  { path: '/no-such-page', name: 'not-found', texts: ['404', 'Oops! Page not found'] },
];

const WIDTHS = [
  { label: 'phone', width: 390, height: 844 },
  { label: 'desktop', width: 1280, height: 800 },
];

let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('public website', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`every public page renders cleanly and accessibly (${colorScheme})`, async () => {
      for (const size of WIDTHS) {
        const { context, problems } = await newIsolatedContext(browser, {
          viewport: { width: size.width, height: size.height },
          colorScheme,
        });
        const page = await context.newPage();
        for (const publicPage of PUBLIC_PAGES) {
          await page.goto(`${stack.url}${publicPage.path}`);
          for (const text of publicPage.texts) {
            await page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: 10_000 });
          }
          expect(await page.getAttribute('html', 'data-mantine-color-scheme')).toBe(colorScheme);
          await saveScreenshot(page, `public-${publicPage.name}-${size.label}-${colorScheme}`);
          expect(await axeViolations(page), `axe on ${publicPage.path} at ${size.width}px, ${colorScheme}`).toEqual([]);
        }
        await context.close();
        expect(problems.consoleErrors).toEqual([]);
        // The 404 page is meant to answer; anything else failing on our origin is a defect.
        expect(problems.failedRequests).toEqual([]);
      }
    });
  }

  test('the header highlights the active route and the mobile menu opens and navigates', async () => {
    const { context } = await newIsolatedContext(browser, { viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${stack.url}/support`);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await expect.poll(() => mobileNav.getByRole('link', { name: 'Support' }).getAttribute('aria-current')).toBe('page');
    await mobileNav.getByRole('link', { name: 'Terms' }).click();
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/terms');
    await context.close();
  });

  test('the 404 page logs the missing path to the console', async () => {
    const { context } = await newIsolatedContext(browser);
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(`${stack.url}/missing/deep/path`);
    await page.getByText('Oops! Page not found').waitFor();
    await expect.poll(() => warnings.join('\n')).toContain('/missing/deep/path');
    await context.close();
  });
});

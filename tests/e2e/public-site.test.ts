/**
 * Smoke test of the public website in a real Chromium against the production build served by the API:
 * every public route renders its key texts at phone and desktop widths, in light and dark colour schemes,
 * with no console error, no failed request to our own origin and no axe-core violation.
 */
import { describe, expect, test } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { axeViolations, saveScreenshot, waitForHydration } from '../support/browser';
import { useWholeStack } from '../support/e2e-suite';

const PUBLIC_PAGES = [
  { path: '/', title: 'Veil VPN: Secure Your Digital Freedom', name: 'home', texts: ['Secure Your Digital Freedom', 'Ultimate Privacy Protection', 'Lightning Fast', 'Global Access'] },
  { path: '/support', title: 'Support | Veil VPN', name: 'support', texts: ['Setup & Installation', 'Technical Support'] },
  { path: '/download', title: 'Download | Veil VPN', name: 'download', texts: ['Download Veil VPN', 'macOS 11 or later', 'Android 8 or later'] },
  { path: '/privacy', title: 'Privacy Policy | Veil VPN', name: 'privacy', texts: ['Privacy Policy', 'October 9, 2025'] },
  { path: '/terms', title: 'Terms of Service | Veil VPN', name: 'terms', texts: ['Terms of Service', 'October 9, 2025'] },
  { path: '/signin', title: 'Sign In | Veil VPN', name: 'signin', texts: ['Continue with Google', 'Continue with Apple'] },
  { path: '/success', title: 'Payment Successful | Veil VPN', name: 'success', texts: ['Welcome to Veil VPN Premium!', "What's Next"] },
  { path: '/cancel', title: 'Payment Cancelled | Veil VPN', name: 'cancel', texts: ['Payment Cancelled', '$100 per year, about $8.34 per month'] },
  // The figures arrive after hydration: "Updated" is on screen once the API has answered (issue 48).
  { path: '/status', title: 'Server Status | Veil VPN', name: 'status', texts: ['Server status', 'Updated'] },
  { path: '/no-such-page', title: 'Page Not Found | Veil VPN', name: 'not-found', texts: ['404', 'Oops! Page not found'] },
];

/** Runs before the page's scripts: remembers the prerendered <main>, to see whether hydration kept it. */
interface PrerenderProbe {
  __prerenderedMain?: Element | null;
}
function keepPrerenderedMain() {
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'interactive') (window as unknown as PrerenderProbe).__prerenderedMain = document.querySelector('main');
  });
}

/**
 * Follows a link and waits for what it leads to: the new URL (a page load from a public page, the router's
 * navigation in the account area), then the heading there, never for a time (issue 34).
 */
async function follow(page: Page, link: Locator, path: string, heading: string): Promise<void> {
  await Promise.all([page.waitForURL((url) => url.pathname === path), link.click()]);
  await page.getByRole('heading', { name: heading }).waitFor();
}

const WIDTHS = [
  { label: 'phone', width: 390, height: 844 },
  { label: 'desktop', width: 1280, height: 800 },
];

// The run's pooled stack (tests/support/stack-pool.ts): these pages need nothing of their own. Its API points
// the client at the suite's Auth emulator, so contexts judge the site's own origin (e2e.newContext), not the
// emulator's iframe, which a page moving on aborts as it should.
const e2e = useWholeStack();

describe('public website', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`every public page renders cleanly and accessibly (${colorScheme})`, async () => {
      for (const size of WIDTHS) {
        const { context, problems } = await e2e.newContext({
          viewport: { width: size.width, height: size.height },
          colorScheme,
        });
        const page = await context.newPage();
        await page.addInitScript(keepPrerenderedMain);
        for (const publicPage of PUBLIC_PAGES) {
          await page.goto(`${e2e.stack.url}${publicPage.path}`);
          for (const text of publicPage.texts) {
            await page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: 10_000 });
          }
          // Hydrated, not replaced: React kept the prerendered <main> (a mismatch renders the page anew).
          await waitForHydration(page);
          await expect.poll(() => page.evaluate(() => document.title)).toBe(publicPage.title);
          expect(await page.evaluate(() => (window as unknown as PrerenderProbe).__prerenderedMain === document.querySelector('main')), `${publicPage.path} hydrated`).toBe(true);
          expect(await page.getAttribute('html', 'data-mantine-color-scheme')).toBe(colorScheme);
          // The menu toggle belongs to narrow screens only (below Mantine's md breakpoint, 62em = 992 px).
          expect(await page.getByRole('button', { name: 'Open menu' }).isVisible(), `menu toggle at ${size.width}px`).toBe(size.width < 992);
          await saveScreenshot(page, `public-${publicPage.name}-${size.label}-${colorScheme}`);
          expect(await axeViolations(page), `axe on ${publicPage.path} at ${size.width}px, ${colorScheme}`).toEqual([]);
        }
        await context.close();
        // The 404 page answers HTTP 404 (issue 22 item 12), which Chromium reports as a failed load; anything
        // else failing on our origin is a defect.
        const notFound = `${e2e.stack.url}/no-such-page`;
        expect(problems.failedRequests).toContain(`GET ${notFound}: HTTP 404`);
        expect(problems.failedRequests.filter((request) => request !== `GET ${notFound}: HTTP 404`)).toEqual([]);
        expect(problems.consoleErrors.filter((error) => !(error.startsWith(`${notFound}:`) && error.includes('404')))).toEqual([]);
      }
    });
  }

  test('the header highlights the active route and the mobile menu opens and navigates', async () => {
    const { context } = await e2e.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${e2e.stack.url}/support`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await expect.poll(() => mobileNav.getByRole('link', { name: 'Support' }).getAttribute('aria-current')).toBe('page');
    await follow(page, mobileNav.getByRole('link', { name: 'Terms' }), '/terms', 'Terms of Service');
    await context.close();
  });

  test("a phone opens /status from the footer and reads each server's state in words (issue 48)", async () => {
    const { context, problems } = await e2e.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${e2e.stack.url}/`);
    await waitForHydration(page);
    const footer = page.getByRole('navigation', { name: 'Footer' });
    await follow(page, footer.getByRole('link', { name: 'Server status' }), '/status', 'Server status');
    await page.getByText(/^Updated \d+ seconds? ago$/).waitFor();
    // The real API's answer for the demo catalogue: no relay reports for its servers, so each is offline with
    // no uptime recorded yet, and the page says so in words.
    const answer = (await (await fetch(`${e2e.stack.url}/api/vpn/servers/status`)).json()) as { servers: { city: string; countryName: string }[] };
    const places = answer.servers.map((server) => `${server.city}, ${server.countryName}`);
    expect(places).toEqual(['New York, United States', 'Lagos, Nigeria']);
    for (const place of places) {
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: place }) });
      await card.getByText('Offline', { exact: true }).waitFor();
      expect(await card.getByText('No report yet').isVisible(), place).toBe(true);
      expect(await card.getByRole('img', { name: 'Uptime over 90 days: no data yet (target 99.9%)' }).isVisible(), place).toBe(true);
    }
    expect(await page.getByText('0 of 2 servers online').isVisible()).toBe(true);
    await saveScreenshot(page, 'status-from-footer-phone');
    await context.close();
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  });

  test('the home page follows the system colour scheme as it changes, before and after Mantine loads', async () => {
    const { context, problems } = await e2e.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    const scheme = () => page.getAttribute('html', 'data-mantine-color-scheme');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const activeLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' });
    const highlight = () => activeLink.evaluate((link) => getComputedStyle(link).backgroundColor);
    await page.goto(`${e2e.stack.url}/`);
    await page.getByRole('heading', { name: 'Secure Your Digital Freedom' }).waitFor();
    await waitForHydration(page);
    expect(await scheme()).toBe('light');
    expect(await background()).toBe('rgb(255, 255, 255)');
    expect(await highlight()).toBe('rgb(243, 240, 255)');

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(scheme).toBe('dark');
    expect(await background()).toBe('rgb(36, 36, 36)');
    expect(await highlight()).toBe('rgba(113, 77, 221, 0.25)');

    // A Mantine page mounts its own provider; the scheme still follows the system, and still does at home.
    const footer = page.getByRole('navigation', { name: 'Footer' });
    // From a public page (plain anchors, no router: issue 32) each link is a page load.
    await follow(page, footer.getByRole('link', { name: 'Support', exact: true }), '/support', 'Setup & Installation');
    await waitForHydration(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(scheme).toBe('light');
    await follow(page, footer.getByRole('link', { name: 'Terms', exact: true }), '/terms', 'Terms of Service');
    await follow(page, page.getByRole('link', { name: 'Veil VPN home' }), '/', 'Secure Your Digital Freedom');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(scheme).toBe('dark');
    await context.close();
    expect(problems.consoleErrors).toEqual([]);
  });

  test('a dark system gets a dark page before any script has run', async () => {
    const { context } = await e2e.newContext({ colorScheme: 'dark', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${e2e.stack.url}/`);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(36, 36, 36)');
    await context.close();
  });

  test('the home page loads no Mantine or router code, nor /support the router; moving to a Mantine page and back works and stays accessible', async () => {
    const { context, problems } = await e2e.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // The home page's own scripts: held as responses and read while the page is open, so no body is asked
    // for after the context closed (an unhandled "Target page, context or browser has been closed").
    const scripts: Response[] = [];
    const onResponse = (response: Response) => {
      if (response.url().startsWith(e2e.stack.url) && response.url().endsWith('.js')) scripts.push(response);
    };
    page.on('response', onResponse);
    await page.goto(`${e2e.stack.url}/`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Secure Your Digital Freedom' }).waitFor();
    page.off('response', onResponse);
    const homeScripts = await Promise.all(scripts.map(async (response) => ({ url: response.url(), body: await response.text() })));
    expect(homeScripts.length).toBeGreaterThan(0);
    expect(homeScripts.filter((script) => script.body.includes('@mantine/core/')).map((script) => script.url)).toEqual([]);
    // Issue 25: it hydrates without TanStack Router (src/main-public.tsx); its links load the next page.
    expect(homeScripts.filter((script) => script.body.includes('__TSR_ROUTER__')).map((script) => script.url)).toEqual([]);
    scripts.length = 0;
    page.on('response', onResponse);

    // Keyboard focus on the plain shell shows Mantine's focus ring (its mantine-focus-auto class).
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        const style = getComputedStyle(element);
        return { text: element.textContent?.trim(), outline: `${style.outlineStyle} ${style.outlineWidth}` };
      });
    const ringed: string[] = [];
    for (let presses = 0; presses < 12 && ringed.length < 2; presses += 1) {
      await page.keyboard.press('Tab');
      const { text, outline } = await focused();
      if (text === 'Sign In' || text === 'Download App') {
        expect(outline, `focus ring on ${text}`).toBe('solid 2px');
        ringed.push(text);
      }
    }
    expect(ringed).toEqual(['Sign In', 'Download App']);

    const main = page.getByRole('navigation', { name: 'Main' });
    await follow(page, main.getByRole('link', { name: 'Support' }), '/support', 'Setup & Installation');
    await waitForHydration(page);
    await page.waitForLoadState('networkidle');
    page.off('response', onResponse);
    // Issue 32: every public page hydrates without the router, Mantine's pages too.
    const supportScripts = await Promise.all(scripts.map(async (response) => ({ url: response.url(), body: await response.text() })));
    expect(supportScripts.filter((script) => script.body.includes('@mantine/core/')).length, '/support draws with Mantine').toBeGreaterThan(0);
    expect(supportScripts.filter((script) => script.body.includes('__TSR_ROUTER__')).map((script) => script.url)).toEqual([]);
    const question = page.getByRole('button', { name: /How do I get started/ });
    await question.click();
    await expect.poll(() => question.getAttribute('aria-expanded')).toBe('true');
    expect(await axeViolations(page), 'axe on /support').toEqual([]);

    // Back home is a page load too; Get Premium loads /subscribe, which the router renders.
    await follow(page, main.getByRole('link', { name: 'Home' }), '/', 'Secure Your Digital Freedom');
    await Promise.all([page.waitForURL((url) => url.pathname === '/subscribe'), page.getByRole('link', { name: 'Get Premium' }).click()]);
    await page.getByText('Sign In to Continue').waitFor();
    // Mantine's component styles, loaded after the shell's, still win over its base rules (button font).
    const mantineButton = page.getByRole('button', { name: 'Sign in with Google' });
    expect(await mantineButton.evaluate((button) => getComputedStyle(button).fontWeight)).toBe('600');
    expect(await axeViolations(page), 'axe on /subscribe').toEqual([]);
    await context.close();
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  });

  test('the sign-in page does not shift while its scripts take over (the card keeps its border from the first layout)', async () => {
    // Issue 12: Mantine's borders are declared per colour scheme; laid out before the scheme was set, the
    // card had none and the "By continuing…" paragraph re-wrapped a frame later (CLS 0.007).
    const { context } = await e2e.newContext({ viewport: { width: 412, height: 823 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${e2e.stack.url}/signin`);
    await waitForHydration(page);
    const shifts = await page.evaluate(async () => {
      // Each shift with what moved, from where to where, so that a failure names the element.
      type Shift = { value: number; sources: Array<{ node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> };
      const nameOf = (node: Node | null | undefined) =>
        node instanceof Element ? `${node.tagName.toLowerCase()}.${[...node.classList].join('.')} "${(node.textContent ?? '').slice(0, 40)}"` : String(node?.nodeName);
      const rectOf = ({ x, y, width, height }: DOMRectReadOnly) => [x, y, width, height].map(Math.round).join(',');
      const valuesOf = (entries: PerformanceEntryList) =>
        (entries as unknown as Shift[]).map(({ value, sources }) => ({
          value,
          moved: sources.map((source) => `${nameOf(source.node)} ${rectOf(source.previousRect)} -> ${rectOf(source.currentRect)}`),
        }));
      const seen: Array<{ value: number; moved: string[] }> = [];
      const observer = new PerformanceObserver((list) => seen.push(...valuesOf(list.getEntries())));
      observer.observe({ type: 'layout-shift', buffered: true });
      // The take-over is over (hydrated above); its fonts in, the page idle and two more frames laid out,
      // every shift it caused has been reported (what is not delivered yet, takeRecords gives).
      await document.fonts.ready;
      await new Promise((resolve) => requestIdleCallback(resolve));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      seen.push(...valuesOf(observer.takeRecords()));
      observer.disconnect();
      return seen;
    });
    expect(shifts).toEqual([]);
    await context.close();
  });

  test('on a slow phone the first frame is drawn with the whole page parsed, not part of it (index.html\'s #page-end)', async () => {
    // Drawn half-parsed, the page moved as the rest arrived: a sign-in button's mark slid aside when its label
    // was parsed (the test above, failing in CI under load). The CPU slowed 20 times makes the parser yield
    // mid-page, as that load did: without the render-blocking link the first frame lacked the buttons.
    const { context } = await e2e.newContext({ viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    await page.addInitScript(() => {
      requestAnimationFrame(() => {
        (window as unknown as { __firstFrame: unknown }).__firstFrame = {
          buttons: document.querySelectorAll('main button').length,
          footer: document.querySelector('footer') !== null,
        };
      });
    });
    // Only the first frame matters: not waited past, the page's scripts loading at a twentieth of the speed.
    await page.goto(`${e2e.stack.url}/signin`, { waitUntil: 'commit' });
    const firstFrame = await page.waitForFunction(() => (window as unknown as { __firstFrame?: unknown }).__firstFrame);
    expect(await firstFrame.jsonValue()).toEqual({ buttons: 2, footer: true });
    await context.close();
  });

  test('the 404 page logs the missing path to the console', async () => {
    const { context } = await e2e.newContext();
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(`${e2e.stack.url}/missing/deep/path`);
    await page.getByText('Oops! Page not found').waitFor();
    await expect.poll(() => warnings.join('\n')).toContain('/missing/deep/path');
    await context.close();
  });
});

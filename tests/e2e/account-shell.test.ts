/**
 * Issue 22 item 6: /account paints its header and a loading state at once, from its HTML (a prerendered
 * shell, as the public pages are), instead of a blank page until the app's code has run; the app then
 * renders the page over the shell: the account for a signed-in visitor, sign-in for anyone else.
 */
import { describe, expect, test } from 'vitest';
import { axeViolations, saveScreenshot } from '../support/browser';
import { useWholeStack } from '../support/e2e-suite';
import { uniqueAddress } from '../support/auth-emulator';

const e2e = useWholeStack();

describe('/account before its scripts have run', () => {
  for (const { width, height, colorScheme } of [
    { width: 390, height: 844, colorScheme: 'light' },
    { width: 1280, height: 800, colorScheme: 'dark' },
  ] as const) {
    test(`shows the header, the footer and "Loading" from its HTML alone (${width} px, ${colorScheme})`, async () => {
      const { context } = await e2e.newContext({ javaScriptEnabled: false, viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      await page.goto(`${e2e.stack.url}/account`);
      expect(await page.title()).toBe('My Account | Veil VPN');
      await expect.poll(() => page.getByRole('banner').getByRole('link', { name: /Veil VPN/ }).first().isVisible()).toBe(true);
      expect(await page.getByRole('status').textContent()).toBe('Loading');
      expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
      await saveScreenshot(page, `account-shell-${width}-${colorScheme}`, { fullPage: false, scripts: false });
    });
  }
});

describe('/account once its scripts have run', () => {
  test('signed out: sign-in, remembering the page', async () => {
    const { context, problems } = await e2e.newContext();
    const page = await context.newPage();
    await page.goto(`${e2e.stack.url}/account`);
    await page.waitForURL((url) => url.pathname === '/signin');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/account');
    await page.getByRole('button', { name: 'Continue with Google' }).waitFor();
    expect(problems.consoleErrors).toEqual([]);
  });

  test('signed in: the shell, then the account page, with no error', async () => {
    const { page, problems } = await e2e.signedInContext('account.shell@example.com');
    // The session check held back: the shell (header and "Loading") is what shows meanwhile.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/verify', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${e2e.stack.url}/account`, { waitUntil: 'commit' });
    await page.getByRole('status').filter({ hasText: 'Loading' }).waitFor();
    expect(await page.getByRole('banner').isVisible()).toBe(true);
    // The loading state has no heading of its own (as before this change: spec §2's spinner); the rest is clean.
    expect((await axeViolations(page)).filter((violation) => !violation.startsWith('page-has-heading-one'))).toEqual([]);
    release();
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    expect(problems.consoleErrors).toEqual([]);
  });
});

describe('/account asks for its answers as it starts (issue 32 item 4)', () => {
  test('the session check and the three lists travel beside the app\'s code, and the app asks for none of them again', async () => {
    const { page, problems } = await e2e.signedInContext(uniqueAddress('early.answers'));
    // The page the sign-in ended on may still be talking to the API (it refreshes the new session when
    // Firebase reports the sign-in: machines/session.ts, `auth.changed`): a blank page first, so nothing it
    // asks for is counted as /account's.
    await page.goto('about:blank');
    const firstCalls = ['auth/verify', 'auth/devices', 'billing/history', 'account/activity'];
    const asked = new Map(firstCalls.map((path) => [path, 0]));
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname.replace(/^\/api\//, '');
      if (asked.has(path)) asked.set(path, asked.get(path)! + 1);
    });
    // The app's code held back: every script but the entry and what it imports statically waits until the
    // four calls have been made (the shell's HTML asks for all of the route's scripts at once).
    const html = await (await page.request.get(`${e2e.stack.url}/account`)).text();
    const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(html)![1]!;
    const entryCode = await (await page.request.get(`${e2e.stack.url}${entry}`)).text();
    const imported = [...entryCode.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((match) => `/assets/${match[1]}`);
    const runByTheHtml = new Set([entry, ...imported]);
    expect(imported.length).toBeGreaterThan(0);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    await page.route('**/assets/*.js', async (route) => {
      if (!runByTheHtml.has(new URL(route.request().url()).pathname)) {
        held.push(route.request().url());
        await released;
      }
      await route.continue();
    });
    const calls = firstCalls.map((path) => page.waitForRequest((request) => request.url().endsWith(`/api/${path}`)));
    await page.goto(`${e2e.stack.url}/account`, { waitUntil: 'commit' });
    await Promise.all(calls);
    // Made while the app's code was held (it was asked for, and is waiting): by the entry script, not by the app.
    await expect.poll(() => held.length).toBeGreaterThan(0);
    release();
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    // Each list has shown what it was given ("Loading your devices…", … gone).
    await page.getByText('No payments yet.').waitFor();
    await expect.poll(() => page.getByText(/^Loading your /).count()).toBe(0);
    expect(Object.fromEntries(asked)).toEqual(Object.fromEntries(firstCalls.map((path) => [path, 1])));
    expect(problems.consoleErrors).toEqual([]);
  });
});

describe('/account arrives a card at a time (issue 32 item 4)', () => {
  test('the first screen\'s two cards come first, each later card in a commit of its own, and the footer with the last', async () => {
    const { page, problems } = await e2e.signedInContext(uniqueAddress('in.turn'));
    await page.setViewportSize({ width: 390, height: 844 });
    // Runs before the page's scripts: each time the page's cards change, what the page then shows.
    await page.addInitScript({
      content: `window.__arrivals = [];
        new MutationObserver(() => {
          const main = document.querySelector('main');
          const footer = document.querySelector('footer');
          if (!main) return;
          const headings = [...main.querySelectorAll('h2')].map((heading) => heading.textContent);
          const footerShown = !!footer && getComputedStyle(footer).display !== 'none';
          const last = window.__arrivals.at(-1);
          if (!last || last.headings.join('|') !== headings.join('|') || last.footerShown !== footerShown) window.__arrivals.push({ headings, footerShown });
        }).observe(document, { childList: true, subtree: true });`,
    });
    await page.goto(`${e2e.stack.url}/account`);
    await page.getByRole('heading', { name: 'Danger Zone' }).waitFor();
    await expect.poll(() => page.getByRole('contentinfo').isVisible()).toBe(true);
    const arrivals = (await page.evaluate(() => (window as unknown as { __arrivals: { headings: string[]; footerShown: boolean }[] }).__arrivals)).filter(
      ({ headings }) => headings.length > 0,
    );
    expect(arrivals[0]!.headings).toEqual(['Account Information', 'Subscription Status']);
    // One more card per commit (the devices card is not there without a subscription).
    const counts = arrivals.map(({ headings }) => headings.length);
    expect(counts).toEqual([...new Set(counts)]);
    expect(counts.length).toBeGreaterThanOrEqual(5);
    expect(arrivals.at(-1)!.headings).toEqual(['Account Information', 'Subscription Status', 'Billing history', 'Account activity', 'Your data', 'Need Help?', 'Danger Zone']);
    // The footer stays hidden until the last card is in: below the cards, it would jump with each one.
    expect(arrivals.filter(({ footerShown }) => footerShown).map(({ headings }) => headings.length)).toEqual([7]);
    expect(problems.consoleErrors).toEqual([]);
  });
});

describe('/account shows its first screen without the code of the cards below it (issue 32 item 4)', () => {
  test('with that code held back, the first two cards are on screen and the footer waits; then the rest arrive', async () => {
    const { page, problems } = await e2e.signedInContext(uniqueAddress('first.screen'));
    await page.setViewportSize({ width: 390, height: 844 });
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    await page.route('**/assets/below-first-screen-*.js', async (route) => {
      held.push(route.request().url());
      await released;
      await route.continue();
    });
    await page.goto(`${e2e.stack.url}/account`);
    await page.getByRole('heading', { name: 'Subscription Status' }).waitFor();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Account Information', 'Subscription Status']);
    expect(await page.getByRole('contentinfo').isVisible()).toBe(false);
    release();
    await page.getByRole('heading', { name: 'Danger Zone' }).waitFor();
    await expect.poll(() => page.getByRole('contentinfo').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      'Account Information',
      'Subscription Status',
      'Billing history',
      'Account activity',
      'Your data',
      'Need Help?',
      'Danger Zone',
    ]);
    expect(problems.consoleErrors).toEqual([]);
  });
});

describe('/account writes its amounts and dates without Intl (issue 32 item 4)', () => {
  test('a subscriber\'s page shows the price paid and the renewal date, and made no Intl object on the way', async () => {
    const { page, problems } = await e2e.signedInContext(uniqueAddress('no.intl'));
    await page.getByRole('button', { name: 'Subscribe Now' }).click();
    await page.waitForURL(/\/api\/checkout\/local\//);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Your subscription is active').waitFor({ timeout: 30_000 });
    // Runs before the page's scripts: the first Intl object a page makes loads the browser's locale data, a
    // long task on a phone; count every one the page makes.
    await page.addInitScript({
      content: `window.__intlObjects = [];
        for (const name of ['NumberFormat', 'DateTimeFormat']) {
          const Original = Intl[name];
          Intl[name] = new Proxy(Original, { construct(target, args) { window.__intlObjects.push(name); return Reflect.construct(target, args); }, apply(target, self, args) { window.__intlObjects.push(name); return Reflect.apply(target, self, args); } });
        }`,
    });
    await page.goto(`${e2e.stack.url}/account`);
    const billing = page.getByRole('region', { name: 'Billing history' });
    await billing.getByText(/^\$\d+\.\d\d$/).first().waitFor();
    await page.getByRole('region', { name: 'Subscription Status' }).getByText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/).waitFor();
    await page.getByRole('heading', { name: 'Danger Zone' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __intlObjects: string[] }).__intlObjects)).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  });
});

describe('/subscribe for a signed-in customer', () => {
  test('loads without a layout shift on a slow phone: the footer waits for the page instead of jumping (issue 32 item 4)', async () => {
    const { context, page } = await e2e.signedInContext(uniqueAddress('no.shift'));
    await page.setViewportSize({ width: 390, height: 844 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript({
      content: `window.__shifts = [];
        new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__shifts.push(entry.value); })
          .observe({ type: 'layout-shift', buffered: true });`,
    });
    await page.goto(`${e2e.stack.url}/subscribe`);
    await page.getByRole('button', { name: 'Subscribe Now' }).waitFor();
    // Every shift the page's arrival caused is reported once the page is idle and two more frames are laid out.
    const shifts = await page.evaluate(async () => {
      await new Promise((resolve) => requestIdleCallback(resolve));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return (window as unknown as { __shifts: number[] }).__shifts;
    });
    expect(shifts).toEqual([]);
    expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
  });
});

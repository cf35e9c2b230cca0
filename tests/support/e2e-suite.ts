/**
 * The whole stack for an end-to-end test file: the API (serving the built SPA) pointed at the suite's
 * Auth emulator, one Chromium, and fresh isolated browser contexts that are closed between tests.
 *
 * The API and the browser are leased from the run's stack pool (tests/support/stack-pool.ts): one per
 * worker, shared by the files that worker runs one after another (issue 50, item 2). A file whose settings
 * differ (other `env`, or a browser that blocks popups) starts its own, as every file once did.
 */
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { launchBrowser, newIsolatedContext } from './browser';
import { accountMenu, signInWithPopup } from './emulator-ui';
import { POOLED_STACK_ENV } from './pooled-stack-env';
import { leaseStack } from './stack-pool';
import { startStack } from './stack';

type BrowserOptions = Parameters<typeof launchBrowser>[0];

/** The part of a stack a test reads: the origin of the API serving the site. */
interface StackOrigin {
  url: string;
}

/** Whether a pooled API has what a file asks for: env the pool's own (tests/support/pooled-stack-env.ts). */
function poolServes(env: Record<string, string>): boolean {
  return Object.entries(env).every(([name, value]) => POOLED_STACK_ENV[name] === value);
}

/**
 * `env` adds to the API's environment (e.g. RELAY_TOKENS for a test that polls the relay API); a file whose
 * env the pool's API does not have starts an API of its own. A browser that blocks popups is launched for
 * its file (the pool's browsers are Playwright's default, popups allowed).
 */
export function useWholeStack(browserOptions: BrowserOptions = {}, env: Record<string, string> = {}) {
  const emulatorHost = inject('e2eAuthEmulatorHost');
  let stack: StackOrigin | undefined;
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  /** What gives the stack back (a lease), or stops what the file started itself, in order. */
  const endings: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    const ownBrowser = browserOptions?.popupBlocking === true;
    if (poolServes(env)) {
      const lease = await leaseStack(inject('e2eStackPool'));
      endings.push(lease.release);
      stack = { url: lease.url };
      // Connected, closing disconnects from the pool's browser (its contexts closed) and leaves it up.
      browser = ownBrowser ? await launchBrowser(browserOptions) : await chromium.connect(lease.wsEndpoint);
    } else {
      const [own, launched] = await Promise.all([
        startStack({ FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, ...env }, { startFrom: inject('e2eMigratedDataDir') }),
        launchBrowser(browserOptions),
      ]);
      [stack, browser] = [own, launched];
      endings.push(own.stop);
    }
    const opened = browser;
    endings.unshift(() => opened.close());
  });

  afterAll(async () => {
    for (const end of endings.splice(0)) await end();
  });

  beforeEach(async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    contexts = [];
  });

  return {
    emulatorHost,
    get stack(): StackOrigin {
      if (!stack) throw new Error('the stack is not started yet');
      return stack;
    },
    get browser(): Browser {
      if (!browser) throw new Error('the browser is not started yet');
      return browser;
    },
    /** An isolated context (outside requests blocked) whose console is judged for our origin only. */
    async newContext(options: Parameters<Browser['newContext']>[0] = {}) {
      const created = await newIsolatedContext(this.browser, options, { ownOrigins: [this.stack.url] });
      contexts.push(created.context);
      return created;
    },
    /**
     * A new context and page signed in through the emulator's popup on /signin, the account menu shown. A
     * subscribed account signed in so hands off to the desktop app (`veilvpn://`): a headless Chromium then takes
     * no more mouse input in that page (docs/decisions.md), so such a test goes on in `context.newPage()`.
     */
    async signedIn(email: string, options: Parameters<Browser['newContext']>[0] = {}, provider: 'Google' | 'Apple' = 'Google') {
      const { context, problems } = await this.newContext(options);
      const page = await context.newPage();
      await page.goto(`${this.stack.url}/signin`);
      await signInWithPopup(context, page, email, provider);
      await accountMenu(page, email).waitFor();
      return { context, page, problems };
    },
  };
}

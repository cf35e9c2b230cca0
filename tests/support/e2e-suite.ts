/**
 * The whole stack for an end-to-end test file: the API (serving the built SPA) pointed at the suite's
 * Auth emulator, one Chromium, and fresh isolated browser contexts that are closed between tests.
 */
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, newIsolatedContext } from './browser';
import { accountMenu, signInWithPopup } from './emulator-ui';
import { startStack, type RunningStack } from './stack';

/** `env` adds to the API's environment (e.g. RELAY_TOKENS for a test that polls the relay API). */
export function useWholeStack(browserOptions: Parameters<typeof launchBrowser>[0] = {}, env: Record<string, string> = {}) {
  const emulatorHost = inject('e2eAuthEmulatorHost');
  let stack: RunningStack | undefined;
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack({ FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, ...env }, { startFrom: inject('e2eMigratedDataDir') }), launchBrowser(browserOptions)]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  beforeEach(async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    contexts = [];
  });

  return {
    emulatorHost,
    get stack(): RunningStack {
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
    /** A new context and page signed in through the emulator's popup on /signin, the account menu shown. */
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

/**
 * The whole stack for an end-to-end test file: the API (serving the built SPA) pointed at the suite's
 * Auth emulator, one Chromium, and fresh isolated browser contexts that are closed between tests.
 *
 * The API is leased from the run's stack pool (tests/support/stack-pool.ts) and the browser is the worker's
 * own: one of each per worker, shared by the files that worker runs one after another (issue 50, item 2). A
 * file whose settings differ (other `env`, or a browser that blocks popups) starts its own, as every file once did.
 */
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, newIsolatedContext } from './browser';
import type { Subscription } from '../../contract/api';
import { isActive } from '../../machines/subscription-display';
import { mintProviderUser } from './auth-emulator';
import { accountMenu, signInWithPopup } from './emulator-ui';
import { POOLED_STACK_ENV } from './pooled-stack-env';
import { leaseStack } from './stack-pool';
import { startStack } from './stack';

type BrowserOptions = Parameters<typeof launchBrowser>[0];

/** The Firebase Web API key a site serves in its client configuration (the key of the SDK's stored user). */
const apiKeys = new Map<string, Promise<string>>();
function servedApiKey(origin: string): Promise<string> {
  let key = apiKeys.get(origin);
  if (!key) {
    key = (async () => {
      const html = await (await fetch(`${origin}/signin`)).text();
      const config = /<script id="client-config" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
      const apiKey = (JSON.parse(config ?? '{}') as { firebase?: { apiKey?: string } }).firebase?.apiKey;
      if (!apiKey) throw new Error(`no Firebase API key in ${origin}/signin's client configuration`);
      return apiKey;
    })();
    apiKeys.set(origin, key);
  }
  return key;
}

/**
 * The worker's Chromium, launched by its first file and used by every file after it in this process (the e2e
 * project runs without isolation, vitest.config.ts): driven from here, not through a browser server in
 * Vitest's main process, whose relaying of every protocol message cost ~25 s of CPU a run (issue 50). It
 * ends with the worker's process (Playwright closes what it launched when its process exits).
 */
let workerBrowser: Promise<Browser> | undefined;

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
      if (ownBrowser) browser = await launchBrowser(browserOptions);
      else {
        // A browser that crashed in an earlier file is not handed on: that file failed, the next starts clean.
        if (workerBrowser && !(await workerBrowser).isConnected()) workerBrowser = undefined;
        browser = await (workerBrowser ??= launchBrowser());
      }
    } else {
      const [own, launched] = await Promise.all([
        startStack({ FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, ...env }, { startFrom: inject('e2eMigratedDataDir') }),
        launchBrowser(browserOptions),
      ]);
      [stack, browser] = [own, launched];
      endings.push(own.stop);
    }
    // The worker's browser stays for the next file; its contexts are closed with each test (below).
    const opened = browser;
    if (opened !== (await workerBrowser)) endings.unshift(() => opened.close());
  });

  const closeContexts = async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    contexts = [];
  };

  afterAll(async () => {
    // The last test's contexts too: the worker's browser goes on to the next file.
    await closeContexts();
    for (const end of endings.splice(0)) await end();
  });

  beforeEach(closeContexts);

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
     * A new context and page signed in through the emulator's popup on /signin, the account menu shown: for a
     * test about the sign-in itself. Any other test costs less with `signedInContext` (below). A subscribed
     * account signed in so hands off to the desktop app (`veilvpn://`): a headless Chromium then takes no more
     * mouse input in that page (docs/decisions.md), so such a test goes on in `context.newPage()`.
     */
    async signedIn(email: string, options: Parameters<Browser['newContext']>[0] = {}, provider: 'Google' | 'Apple' = 'Google') {
      const { context, problems } = await this.newContext(options);
      const page = await context.newPage();
      await page.goto(`${this.stack.url}/signin`);
      await signInWithPopup(context, page, email, provider);
      await accountMenu(page, email).waitFor();
      return { context, page, problems };
    },
    /**
     * A new context already signed in as `email` when its first page opens, and that page on `path` with the
     * account menu shown (by default where the popup's sign-in would have led: /account for a subscriber,
     * /subscribe for anyone else): for the tests that are not about signing in (sign-in.test.ts and
     * popup-sign-in.test.ts prove the popup itself, with `signedIn` above). The sign-in is the one the popup
     * makes, without the browser: the Auth emulator signs the provider's account in (its IdP endpoint, as
     * the popup's page does), the API exchanges its ID token for a session (POST /api/auth/google/signin, or
     * apple), and the context starts with what the page would have stored, the session token in local storage
     * and Firebase's user in its IndexedDB, so Firebase restores the user as after a reload (its ID token, a
     * sign-out and an auth state change all work). Saves the popup's page, its scripts and the emulator's UI:
     * about 2 to 3 s of CPU a sign-in (docs/performance.md, "Tests that cost what they prove").
     */
    async signedInContext(
      email: string,
      options: Parameters<Browser['newContext']>[0] = {},
      { provider = 'Google', path, name = 'Ada Lovelace' }: { provider?: 'Google' | 'Apple'; path?: string; name?: string } = {},
    ) {
      const origin = this.stack.url;
      const providerId = provider === 'Apple' ? 'apple.com' : 'google.com';
      const sub = `sub-${email}`;
      const [user, apiKey] = await Promise.all([
        mintProviderUser(`http://${emulatorHost}`, { email, name, provider: providerId, sub }),
        servedApiKey(origin),
      ]);
      const body =
        provider === 'Apple'
          ? { identityToken: user.idToken, userIdentifier: sub, email, fullName: name }
          : { idToken: user.idToken };
      const answer = await fetch(`${origin}/api/auth/${provider === 'Apple' ? 'apple' : 'google'}/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const session = (await answer.json()) as { sessionToken?: string; subscription?: Subscription | null };
      if (!answer.ok || !session.sessionToken) throw new Error(`the API refused the sign-in of ${email}: HTTP ${answer.status}`);
      const now = Date.now();
      // Firebase's UserImpl.toJSON(), as its IndexedDB persistence stores it under firebase:authUser:<key>:[DEFAULT].
      const storedUser = {
        uid: user.uid,
        email,
        emailVerified: true,
        displayName: name,
        isAnonymous: false,
        providerData: [{ providerId, uid: sub, displayName: name, email, phoneNumber: null, photoURL: null }],
        stsTokenManager: { refreshToken: user.refreshToken, accessToken: user.idToken, expirationTime: now + (user.expiresIn ?? 3600) * 1000 },
        createdAt: String(now),
        lastLoginAt: String(now),
        apiKey,
        appName: '[DEFAULT]',
      };
      const fbaseKey = `firebase:authUser:${apiKey}:[DEFAULT]`;
      const { context, problems } = await this.newContext({
        ...options,
        storageState: {
          cookies: [],
          origins: [
            {
              origin,
              localStorage: [{ name: 'sessionToken', value: session.sessionToken }],
              // Restored by Playwright (the types of 1.65 do not list it; BrowserContext.storageState({ indexedDB: true }) writes it).
              indexedDB: [
                {
                  name: 'firebaseLocalStorageDb',
                  version: 1,
                  stores: [
                    {
                      name: 'firebaseLocalStorage',
                      keyPath: 'fbase_key',
                      autoIncrement: false,
                      indexes: [],
                      records: [{ value: { fbase_key: fbaseKey, value: storedUser } }],
                    },
                  ],
                },
              ],
            } as { origin: string; localStorage: { name: string; value: string }[] },
          ],
        },
      });
      const page = await context.newPage();
      await page.goto(`${origin}${path ?? (isActive(session.subscription) ? '/account' : '/subscribe')}`);
      await accountMenu(page, email).waitFor();
      return { context, page, problems, uid: user.uid, sessionToken: session.sessionToken };
    },
  };
}

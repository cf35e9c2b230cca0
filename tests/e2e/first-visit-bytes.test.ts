/**
 * Issue 45 item 9, in Chromium against the production build: the bytes a first-time visitor pays for. A home
 * page with no stored session loads no session code (XState, the session machine, the API client with zod),
 * not even once the browser is idle, and its header still offers Sign In; a visitor with a stored session
 * gets it (the header needs it). On Save-Data or 2G the sign-in page fetches no sign-in code ahead of a tap.
 */
import { describe, expect, test } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { saveScreenshot } from '../support/browser';
import { useWholeStack } from '../support/e2e-suite';

// The worker's API and Chromium (issue 50): what a page downloads depends on the build, not on the stack.
const e2e = useWholeStack();

/** What a script is, read from its body (the same marks tests/unit/build-output.test.ts reads). */
const KINDS = {
  xstate: (body: string) => body.includes('xstate.init'),
  sessionMachine: (body: string) => /["']session\.signOut["']:\{/.test(body),
  apiClient: (body: string) => body.includes('$ZodError'),
  firebase: (body: string) => body.includes('identitytoolkit'),
};
type Kind = keyof typeof KINDS;

interface Loaded {
  scripts: Array<{ url: string; kinds: Kind[] }>;
  /** Bytes of JavaScript as they crossed the network (compressed). */
  transferred: number;
}

/**
 * Opens `path` in a fresh context and records every script of our origin it loads, until the page is idle
 * and past the longest idle-time load's deadline (src/app/boot/main-thread.ts: 3 s): proving that nothing
 * comes needs a wait as long as the thing that would have come.
 */
async function load(path: string, { sessionToken, saveData }: { sessionToken?: string; saveData?: boolean } = {}): Promise<Loaded & { page: Page }> {
  const { context } = await e2e.newContext({ viewport: { width: 1280, height: 800 } });
  if (sessionToken) await context.addInitScript((token) => window.localStorage.setItem('sessionToken', token), sessionToken);
  if (saveData) {
    await context.addInitScript(() => Object.defineProperty(navigator, 'connection', { configurable: true, value: { saveData: true, effectiveType: '2g' } }));
  }
  const page = await context.newPage();
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(e2e.stack.url) && response.url().endsWith('.js')) responses.push(response);
  });
  await page.goto(`${e2e.stack.url}${path}`, { waitUntil: 'networkidle' });
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 3500))));
  await page.waitForLoadState('networkidle');
  const scripts = await Promise.all(
    responses.map(async (response) => {
      const body = await response.text();
      return { url: response.url(), kinds: (Object.keys(KINDS) as Kind[]).filter((kind) => KINDS[kind](body)) };
    }),
  );
  const sizes = await Promise.all(responses.map(async (response) => (await response.request().sizes()).responseBodySize));
  return { page, scripts, transferred: sizes.reduce((sum, size) => sum + size, 0) };
}

const scriptsOf = (loaded: Loaded, kind: Kind) => loaded.scripts.filter((script) => script.kinds.includes(kind)).map((script) => script.url);

describe('what a first-time visitor downloads (issue 45 item 9)', () => {
  test('the home page with no stored session loads no session code, idle or not, under 100 KB of JavaScript, and offers Sign In', async () => {
    const home = await load('/');
    expect(home.scripts.length).toBeGreaterThan(0);
    for (const kind of ['xstate', 'sessionMachine', 'apiClient', 'firebase'] as const) expect(scriptsOf(home, kind), kind).toEqual([]);
    expect(home.transferred, `${home.scripts.length} scripts`).toBeLessThan(100 * 1024);
    // The header reads signed out without the session's code.
    await home.page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    await saveScreenshot(home.page, 'first-visit-home-1280', { fullPage: false });

    // Save-Data or 2G: the same, nothing more.
    const saving = await load('/', { saveData: true });
    expect(saving.scripts.map((script) => script.url).sort()).toEqual(home.scripts.map((script) => script.url).sort());
  });

  test('a visitor with a stored session gets the session once the page is idle (its header needs it)', async () => {
    const returning = await load('/', { sessionToken: 'a-stored-session-token-the-api-refuses' });
    expect(scriptsOf(returning, 'xstate').length).toBeGreaterThan(0);
    expect(scriptsOf(returning, 'sessionMachine').length).toBeGreaterThan(0);
  });

  test('/signin prepares the sign-in code at idle, except on Save-Data or 2G, where a tap loads it', async () => {
    const ordinary = await load('/signin');
    expect(scriptsOf(ordinary, 'firebase').length, 'an ordinary connection: Firebase ready before the tap').toBeGreaterThan(0);
    const saving = await load('/signin', { saveData: true });
    expect(scriptsOf(saving, 'firebase')).toEqual([]);
    expect(scriptsOf(saving, 'xstate')).toEqual([]);
    await saving.page.getByRole('button', { name: 'Continue with Google' }).waitFor();
  });
});

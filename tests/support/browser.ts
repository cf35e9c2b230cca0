/**
 * Real Chromium for the end-to-end tests, driven through playwright-core: the one the e2e global setup
 * resolved (tests/support/chromium-path.ts: CHROMIUM_PATH, the system's, or the npm-shipped build). Every request that leaves this machine is blocked, except Google's api.js
 * loader, which Firebase's popup sign-in needs even against the emulator: the harness answers it with
 * the offline stand-in in tests/support/gapi-loader-stub.js.
 */
import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request as BrowserRequest } from 'playwright-core';
import { expect, inject } from 'vitest';
import { BROWSER_ARGS } from './browser-args';
import { answerGapiLoader, GAPI_LOADER } from './gapi-loader';

const require = createRequire(import.meta.url);
const ARTEFACTS_DIR = join(process.cwd(), 'test-results');

/** `popupBlocking`: block popups opened outside a user gesture, as browsers do (Playwright turns it off). */
export async function launchBrowser({ popupBlocking = false }: { popupBlocking?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: inject('chromiumPath'),
    ignoreDefaultArgs: popupBlocking ? ['--disable-popup-blocking'] : undefined,
    args: BROWSER_ARGS,
  });
}

/**
 * Any URL that leaves this machine: not data:, blob: or about:, and not on 127.0.0.1, localhost or [::1]. A
 * regular expression, not a function, so Playwright matches it in its own server and lets every local request
 * (the site's scripts, the API's answers) through there; with a function every request of every page waited
 * for a round trip to the test's process (issue 50). Held equal to `isLocal` in tests/unit/outside-requests.test.ts.
 */
export const LEAVES_THIS_MACHINE = /^(?!(?:data|blob|about):)(?!(?:https?|wss?):\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?(?:[/?#]|$))/i;

export function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

export interface PageProblems {
  consoleErrors: string[];
  failedRequests: string[];
}

/** A context that only reaches this machine, with console errors and our own failed requests recorded. */
export async function newIsolatedContext(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
  watch: WatchOptions = {},
): Promise<{ context: BrowserContext; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const problems: PageProblems = { consoleErrors: [], failedRequests: [] };
  await context.route(
    LEAVES_THIS_MACHINE,
    (route) => (GAPI_LOADER.test(route.request().url()) ? answerGapiLoader(route) : route.abort('blockedbyclient')),
  );
  context.on('page', (page) => watchPage(page, problems, watch.ownOrigins));
  return { context, problems };
}

export interface WatchOptions {
  /** Origins whose console counts (the site under test); defaults to every local origin. */
  ownOrigins?: string[];
}

function watchPage(page: Page, problems: PageProblems, ownOrigins: string[] | undefined) {
  const isOurs = (url: string) => (ownOrigins ? ownOrigins.some((origin) => url.startsWith(origin)) : isLocal(url));
  page.on('console', (message) => {
    // Pages of other origins (the Auth emulator's sign-in page) are not ours to judge.
    if (message.type() === 'error' && isOurs(page.url())) problems.consoleErrors.push(`${page.url()}: ${message.text()}`);
    // React's hydration complaints come as warnings too (a prerendered page the browser did not match).
    if (message.type() === 'warning' && isOurs(page.url()) && /hydrat|server rendered|did not match/i.test(message.text())) {
      problems.consoleErrors.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => isOurs(page.url()) && problems.consoleErrors.push(`${page.url()}: ${error.message}${process.env.E2E_DEBUG ? `\n${error.stack}` : ''}`));
  // A script the page was still fetching when the customer followed a link (the public pages load the
  // session's chunks at idle, and their links load the next page) is aborted by the browser, as it should
  // be: not a failure. Known by a main-frame navigation that began after the document that made the request
  // was committed. Counting from the commit, not from the navigation's start, matters: while the next page's
  // answer is on its way the old document still runs, and what it starts then is aborted too (issue 34).
  let navigationsBegun = 0;
  let navigationsCommitted = 0;
  const navigationsBefore = new WeakMap<BrowserRequest, number>();
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigationsCommitted = navigationsBegun;
  });
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigationsBegun += 1;
    else navigationsBefore.set(request, navigationsCommitted);
  });
  page.on('requestfailed', (request) => {
    if (!isOurs(request.url())) return;
    const errorText = request.failure()?.errorText;
    const leftBehind = errorText === 'net::ERR_ABORTED' && navigationsBegun > (navigationsBefore.get(request) ?? navigationsBegun);
    if (!leftBehind) problems.failedRequests.push(`${request.method()} ${request.url()}: ${errorText}`);
  });
  page.on('response', (response) => {
    if (isOurs(response.url()) && response.status() >= 400) {
      problems.failedRequests.push(`${response.request().method()} ${response.url()}: HTTP ${response.status()}`);
    }
  });
}

/**
 * The whole page by default; `fullPage: false` for what the screen shows (a dialog over its overlay). Taken once
 * the screen's transitions are over: a picture of a dialog still fading in (its text over the page's, both half
 * transparent) showed a layout no one sees and looked broken to the person reviewing it. A whole page is taken
 * from its top, then the page is scrolled back: scrolled down, the picture drew the sticky header and any toast
 * where the reader was, mid-page. `scripts: false` for a page without JavaScript: nothing can be asked of it
 * (Playwright's evaluate waits forever), so it is taken as it is.
 */
export async function saveScreenshot(page: Page, name: string, { fullPage = true, scripts = true } = {}): Promise<string> {
  const dir = join(ARTEFACTS_DIR, 'screenshots');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  const scrollTo = (to: { left: number; top: number }) => page.evaluate((at) => window.scrollTo({ ...at, behavior: 'instant' }), to);
  const readerAt = scripts && fullPage ? await page.evaluate(() => ({ left: window.scrollX, top: window.scrollY })) : undefined;
  if (readerAt) await scrollTo({ left: 0, top: 0 });
  if (scripts) await transitionsSettled(page);
  await page.screenshot({ path, fullPage });
  if (readerAt) await scrollTo(readerAt);
  return path;
}

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Runs axe-core in the page (through the debugger protocol, so the page's CSP does not stop it). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(`${axeSource}\n;undefined`);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, why: n.failureSummary?.split('\n').slice(1, 2).join(' ').trim() })),
    }));
  });
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3))}`);
}

/**
 * Waits until what is on screen is what is painted, rather than for a guessed time: two frames (a style
 * change, such as a colour scheme, starts its transitions at the next one), then until no finite animation
 * or transition is running (a dialog's or a toast's entrance, the scheme's colour fades). Endless ones (a
 * loader) are not waited for. Measurements made after it (axe's contrast, sizes, screenshots) read the end state.
 */
export async function transitionsSettled(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const running = document
            .getAnimations()
            .filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity);
          await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
          return running.length;
        }),
      { timeout: 10_000, interval: 0 },
    )
    .toBe(0);
}

/**
 * Waits until React has taken the prerendered page over (its <main> carries a fiber): before that, a click on
 * a prerendered control (an accordion, a menu toggle) does nothing.
 */
export async function waitForHydration(page: Page): Promise<void> {
  // Up to 30 s, not expect.poll's 1 s default: on a busy machine React takes a page over in seconds (issue 34).
  await expect
    .poll(() => page.evaluate(() => Object.keys(document.querySelector('main') ?? {}).some((key) => key.startsWith('__reactFiber'))), {
      timeout: 30_000,
      interval: 100,
    })
    .toBe(true);
}

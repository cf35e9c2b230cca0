/**
 * The harness's judge of a page (tests/support/browser.ts `newIsolatedContext`): a request of ours that
 * fails is a defect the test reports, but a script the old page was still fetching when the customer moved
 * on is aborted by the browser, as it should be. Both sides pinned against a tiny local server, because
 * getting either wrong costs a red CI by chance (issue 34: a public page's idle fetch, started while the next
 * page's answer was on its way, failed the public-site test once in CI).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newIsolatedContext } from '../support/browser';
import { useWholeStack } from '../support/e2e-suite';

/** The page starts fetching /late.js 300 ms after it loads; /late.js never answers within the test. */
const PAGE_WITH_LATE_SCRIPT = `<!doctype html><title>t</title><p>first</p>
<script>setTimeout(() => { const s = document.createElement('script'); s.src = '/late.js'; document.head.append(s); }, 300);</script>`;
const NEXT_PAGE = '<!doctype html><title>n</title><p>next</p>';

let server: Server;
let origin: string;
// The worker's pooled Chromium (tests/support/stack-pool.ts); the pages come from the tiny server below.
const e2e = useWholeStack();
/** /next answers only once the old page has asked for /late.js, so the old page runs on meanwhile. */
let nextPageWaiting: ServerResponse | null = null;
let lateScriptAsked = false;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/late.js') {
      // Held open: only an abort ends it. Now the next page may answer.
      lateScriptAsked = true;
      nextPageWaiting?.writeHead(200, { 'content-type': 'text/html' }).end(NEXT_PAGE);
      return;
    }
    if (request.url === '/missing.js') {
      response.writeHead(404).end();
      return;
    }
    if (request.url === '/next') {
      if (lateScriptAsked) response.writeHead(200, { 'content-type': 'text/html' }).end(NEXT_PAGE);
      else nextPageWaiting = response;
      return;
    }
    if (request.url === '/broken') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>b</title><script src="/missing.js"></script>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE_WITH_LATE_SCRIPT);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

test('a script the old page started while the next page was on its way, aborted by it, is no failure', async () => {
  const { context, problems } = await newIsolatedContext(e2e.browser);
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.goto(`${origin}/next`);
  await page.getByText('next').waitFor();
  expect(lateScriptAsked).toBe(true);
  await context.close();
  expect(problems.failedRequests).toEqual([]);
});

test('a script of the page on screen that fails is reported', async () => {
  const { context, problems } = await newIsolatedContext(e2e.browser);
  const page = await context.newPage();
  await page.goto(`${origin}/broken`);
  await expect.poll(() => problems.failedRequests).toContain(`GET ${origin}/missing.js: HTTP 404`);
  await context.close();
});

/**
 * The signed-in pages of `npm run bench:web` (issue 32, item 4): customers made through the API as a
 * customer makes them, and a browser profile holding one's session for Lighthouse.
 *
 * - a subscriber for `/account`: signed in with Google (the Auth emulator's IdP), paid through the local
 *   checkout (an active subscription and its first charge in the billing history), and two desktop
 *   devices paired through the hand-off;
 * - a signed-in customer without a subscription for `/subscribe`, the page they buy from.
 *
 * Each run gets a fresh profile signed in as the customer (profileWithSession), so one run does not warm the
 * next; Lighthouse runs with `--disable-storage-reset`, which keeps the profile's storage (and its emptied
 * cache).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { mintProviderUser } from '../../tests/support/auth-emulator.ts';
import { accountMenu, signInWithPopup } from '../../tests/support/emulator-ui.ts';
import { answerGapiLoader, GAPI_LOADER } from '../../tests/support/gapi-loader.ts';

export interface SignedInCustomers {
  /** E-mail of the subscriber (active subscription, billing history, two devices). */
  subscriber: string;
  /** E-mail of a customer who has not subscribed. */
  notSubscribed: string;
}

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function signIn(base: string, emulatorUrl: string, email: string, name: string) {
  const minted = await mintProviderUser(emulatorUrl, { email, name, provider: 'google.com' });
  const { sessionToken } = await post(base, '/api/auth/google/signin', { idToken: minted.idToken });
  return { minted, sessionToken: sessionToken as string };
}

export async function makeSignedInCustomers(base: string, emulatorUrl: string): Promise<SignedInCustomers> {
  const stamp = Date.now();
  const subscriber = await signIn(base, emulatorUrl, `bench.subscriber.${stamp}@example.com`, 'Ada Bench');
  // The local checkout: its page's Pay button posts here and answers 303 to /success.
  const { url } = await post(base, '/api/subscription/create-checkout', { idToken: subscriber.minted.idToken, email: subscriber.minted.email });
  const paid = await fetch(`${base}${new URL(url as string).pathname}/pay`, { method: 'POST', redirect: 'manual' });
  if (paid.status !== 303) throw new Error(`local checkout pay answered ${paid.status}`);
  for (const deviceName of ["Ada's laptop", "Ada's desktop"]) {
    const { handoffToken } = await post(base, '/api/auth/handoff', { sessionToken: subscriber.sessionToken });
    await post(base, '/api/auth/handoff/redeem', { handoffToken, deviceName });
  }
  const notSubscribed = await signIn(base, emulatorUrl, `bench.visitor.${stamp}@example.com`, 'Grace Bench');
  return { subscriber: subscriber.minted.email, notSubscribed: notSubscribed.minted.email };
}

/**
 * A new Chromium profile signed in as `email` the way a customer is: through "Continue with Google" on
 * /signin and the Auth emulator's popup (Google's loader answered by the tests' offline stand-in). So the
 * profile holds what a customer's browser holds, the session token and Firebase's own signed-in user: with
 * the token alone, Firebase reports nobody signed in once it loads and the session ends mid-measurement
 * (spec §4, session restore), a sign-out no customer sees. The HTTP cache is emptied afterwards: Lighthouse
 * measures a cold load. Returns the profile's folder.
 */
export async function profileWithSession(chromePath: string, base: string, email: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: chromePath, headless: true, args: ['--no-sandbox'] });
  try {
    await context.route(GAPI_LOADER, answerGapiLoader);
    const page = await context.newPage();
    await page.goto(`${base}/signin`);
    await signInWithPopup(context, page, email);
    // Signed in: the header names the customer, and the session token is stored.
    await accountMenu(page, email).waitFor();
    await page.waitForFunction(() => window.localStorage.getItem('sessionToken') !== null);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
  } finally {
    await context.close();
  }
  return dir;
}

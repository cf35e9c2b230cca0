/**
 * The signed-in pages of `npm run bench:web` (issue 32, item 4): customers made through the API as a
 * customer makes them, and a browser profile holding one's session for Lighthouse.
 *
 * - a subscriber for `/account`: signed in with Google (the Auth emulator's IdP), paid through the local
 *   checkout (an active subscription and its first charge in the billing history), and two desktop
 *   devices paired through the hand-off;
 * - a signed-in customer without a subscription for `/subscribe`, the page they buy from.
 *
 * The SPA restores a session from the token in localStorage alone (no Firebase on these pages), so a
 * profile whose storage holds the token is all Lighthouse needs. It is written on `/api/live`, a JSON
 * answer of the same origin, so no page, script or stylesheet is in the profile's cache: Lighthouse
 * (run with `--disable-storage-reset`, which also keeps the cache) measures a cold load, as for the public
 * pages. A fresh profile per run, so one run does not warm the next.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { mintProviderUser } from '../../tests/support/auth-emulator.ts';

export interface SignedInCustomers {
  /** Session token of the subscriber (active subscription, billing history, two devices). */
  subscriber: string;
  /** Session token of a customer who has not subscribed. */
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
  return { subscriber: subscriber.sessionToken, notSubscribed: notSubscribed.sessionToken };
}

/** A new Chromium profile whose localStorage for `base` holds the session token; returns its folder. */
export async function profileWithSession(chromePath: string, base: string, sessionToken: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: chromePath, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/api/live`);
    await page.evaluate((token) => window.localStorage.setItem('sessionToken', token), sessionToken);
  } finally {
    await context.close();
  }
  return dir;
}

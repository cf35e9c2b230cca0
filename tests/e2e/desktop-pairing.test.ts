/**
 * Issue 23, item 9, in the browser: the desktop app opens /account?pair=<PKCE challenge>; the signed-in
 * account page asks the customer first (issue 34), then opens the app's link once, minted for that
 * challenge, and drops the parameter. Only the app holding the verifier can redeem it, and the answer
 * names the account.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { useWholeStack } from '../support/e2e-suite';
import { signInWithPopup, storageKey } from '../support/emulator-ui';

const e2e = useWholeStack();
const EMAIL = `pairing.${Date.now()}@example.com`;

describe('desktop app pairing', () => {
  test('/account?pair=<challenge> asks first, then opens the app with a link only its verifier redeems', async () => {
    const { context } = await e2e.newContext();
    const page = await context.newPage();
    await page.goto(`${e2e.stack.url}/signin`);
    await signInWithPopup(context, page, EMAIL);
    await page.waitForURL(`${e2e.stack.url}/subscribe`);

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const handoffCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/handoff') handoffCalls.push(request.url());
    });

    // Issue 34: the page asks first, naming what will happen; Not Now mints and opens nothing.
    await page.goto(`${e2e.stack.url}/account?pair=${challenge}`);
    const dialog = page.getByRole('dialog', { name: 'Sign in the Veil VPN app?' });
    await dialog.waitFor();
    const words = await dialog.innerText();
    expect(words).toContain(`The Veil VPN app on this computer will be signed in to your account (${EMAIL})`);
    expect(words).toContain('Continue only if you just chose Sign In in the Veil VPN app yourself.');
    expect(new URL(page.url()).search).toBe('');
    await dialog.getByRole('button', { name: 'Not Now' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(handoffCalls).toEqual([]);
    expect(await storageKey(page, 'token')).toBeNull();

    await page.goto(`${e2e.stack.url}/account?pair=${challenge}`);
    const asked = page.getByRole('dialog', { name: 'Sign in the Veil VPN app?' });
    const minted = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/handoff');
    await asked.getByRole('button', { name: 'Sign In the App' }).click();
    expect((await minted).status()).toBe(200);
    await expect.poll(() => storageKey(page, 'token'), { timeout: 30_000 }).toMatch(/^veilvpn:\/\/auth\?token=/);
    const handoffToken = new URL((await storageKey(page, 'token'))!).searchParams.get('token')!;
    // Dropped once used, so a reload does not open the app again.
    expect(new URL(page.url()).search).toBe('');

    const redeem = (codeVerifier?: string) =>
      fetch(`${e2e.stack.url}/api/auth/handoff/redeem`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ handoffToken, deviceName: 'Pairing laptop', ...(codeVerifier ? { codeVerifier } : {}) }),
      });
    expect((await redeem()).status).toBe(401);
    const paired = await redeem(verifier);
    expect(paired.status).toBe(200);
    expect(((await paired.json()) as { user: { email: string } }).user.email).toBe(EMAIL);
  }, 120_000);
});

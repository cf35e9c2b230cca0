/**
 * Issue 23, item 9: the desktop app can start the sign-in itself with a PKCE code challenge
 * (`/account?pair=<challenge>`); a hand-off minted for it redeems only with the app's verifier, so a link
 * another page plants cannot sign the app into someone else's account. The redeem answer names the
 * account's e-mail, for the app to show. The website-initiated Open VPN App (no challenge) still redeems,
 * but not in an app that started a pairing of its own (issue 34).
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { call, createTestApi, type TestApi } from '../support/server-harness';

const emulatorHost = inject('authEmulatorHost');
const INVALID = {
  success: false,
  error: 'This app link has expired or was already used. Open the VPN app again from your account.',
  code: 'handoff_invalid',
};

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('hand-off pairing started by the desktop app', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ driver: 'pglite', emulatorHost, env: { RATE_LIMIT_SIGN_IN: '1000', RATE_LIMIT_SCALE: '100' } });
  });
  afterAll(() => api?.close());

  async function signIn(label: string) {
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email: uniqueAddress(label) });
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    return { sessionToken: body.sessionToken as string, email: minted.email };
  }
  async function handoff(sessionToken: string, codeChallenge?: string) {
    const answer = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken, ...(codeChallenge ? { codeChallenge } : {}) });
    expect(answer.status).toBe(200);
    return answer.body.handoffToken as string;
  }
  const redeem = (handoffToken: string, codeVerifier?: string) =>
    call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Laptop', ...(codeVerifier ? { codeVerifier } : {}) });

  test('a paired hand-off redeems only with the verifier, and the answer names the account', async () => {
    const { sessionToken, email } = await signIn('pair');
    const app = pkcePair();
    const link = await handoff(sessionToken, app.challenge);

    expect(await redeem(link)).toEqual({ status: 401, body: INVALID, headers: expect.anything() });
    expect(await redeem(link, pkcePair().verifier)).toMatchObject({ status: 401, body: INVALID });
    // The refusals left it unused: the app holding the verifier still redeems it, once.
    const redeemed = await redeem(link, app.verifier);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.user).toMatchObject({ email });
    expect(await redeem(link, app.verifier)).toMatchObject({ status: 401, body: INVALID });
  });

  test('a link planted by another account, minted for the victim app\'s challenge or none, does not pair', async () => {
    const attacker = await signIn('attacker');
    const victimApp = pkcePair();
    // The attacker learns the victim app's challenge (it travels in a URL) and mints a link for it:
    // without the verifier, which never leaves the victim's app, nobody else can redeem it...
    const planted = await handoff(attacker.sessionToken, victimApp.challenge);
    expect((await redeem(planted, pkcePair().verifier)).status).toBe(401);
    // ...and a link minted for no challenge, redeemed by the victim app, names the attacker's account,
    // which the app shows before use.
    const unpaired = await redeem(await handoff(attacker.sessionToken));
    expect(unpaired.status).toBe(200);
    expect(unpaired.body.user).toMatchObject({ email: attacker.email });
  });

  test('an app pairing with PKCE does not take a link minted without a challenge (issue 34)', async () => {
    const attacker = await signIn('unpaired');
    const victimApp = pkcePair();
    // The app started a pairing and holds its verifier; a link minted for no challenge is not its pairing.
    const planted = await handoff(attacker.sessionToken);
    expect(await redeem(planted, victimApp.verifier)).toEqual({ status: 401, body: INVALID, headers: expect.anything() });
    // The refusal left the link unused: the website's own Open VPN App (no verifier) still redeems it.
    expect((await redeem(planted)).status).toBe(200);
  });

  test('a challenge or verifier of the wrong shape is a 400 naming the field', async () => {
    const { sessionToken } = await signIn('shape');
    expect(await call(api.app, 'POST', '/api/auth/handoff', { sessionToken, codeChallenge: 'short' })).toMatchObject({
      status: 400,
      body: { success: false, code: 'validation_failed', error: expect.stringContaining('codeChallenge') },
    });
    const link = await handoff(sessionToken, pkcePair().challenge);
    expect(await redeem(link, 'not a verifier')).toMatchObject({ status: 400, body: { code: 'validation_failed', error: expect.stringContaining('codeVerifier') } });
  });
});

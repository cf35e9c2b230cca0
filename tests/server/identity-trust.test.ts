/**
 * Issue 10 §2: only the identities the product offers sign in, an account's e-mail is only ever one the
 * provider verified, money calls check revocation, the cool-down also holds per e-mail address, and a
 * verifier that cannot reach Google's keys answers 503. Real tokens from the Auth emulator throughout.
 */
import { describe, expect, inject, test } from 'vitest';
import { mintOtherUser, mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { describeApi } from '../support/describe-api';
import { call, createTestApi } from '../support/server-harness';
import { emulatorAdmin } from '../support/staff';
import { users } from '../../server/db/schema';
import { createFirebaseVerifier } from '../../server/identity/verifier';

const emulatorHost = inject('authEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;



describeApi('identity trust', { layer: 'http', emulatorHost, env: { DELETED_ACCOUNT_COOLDOWN: '1h' } }, (api) => {

  const google = (idToken: string) => call(api.app, 'POST', '/api/auth/google/signin', { idToken });
  const apple = (identityToken: string, extra: Record<string, unknown> = {}) =>
    call(api.app, 'POST', '/api/auth/apple/signin', { identityToken, userIdentifier: 'apple-user', email: null, fullName: null, ...extra });

  test('anonymous and e-mail/password identities are refused on both routes with 403, and no account is made', async () => {
    const anonymous = await mintOtherUser(emulatorUrl, 'anonymous');
    const password = await mintOtherUser(emulatorUrl, 'password', uniqueAddress('password'));
    for (const minted of [anonymous, password]) {
      expect(await google(minted.idToken)).toMatchObject({
        status: 403,
        body: { success: false, error: 'This sign-in is not a Google account. Please sign in with Google or Apple.', code: 'wrong_provider' },
      });
      expect(await apple(minted.idToken)).toMatchObject({
        status: 403,
        body: { success: false, error: 'This sign-in is not an Apple account. Please sign in with Google or Apple.', code: 'wrong_provider' },
      });
    }
    expect(await api.database.db.select().from(users)).toHaveLength(0);
  });

  test("a Google token on the Apple route (and an Apple token on the Google route) is refused, not stored as the other provider", async () => {
    const fromGoogle = await mintProviderUser(emulatorUrl, { email: uniqueAddress('g'), provider: 'google.com' });
    const fromApple = await mintProviderUser(emulatorUrl, { email: uniqueAddress('a'), provider: 'apple.com' });
    expect((await apple(fromGoogle.idToken)).status).toBe(403);
    expect((await google(fromApple.idToken)).status).toBe(403);
    expect(await api.database.db.select().from(users)).toHaveLength(0);
    expect(await google(fromGoogle.idToken)).toMatchObject({ status: 200, body: { user: { provider: 'google' } } });
    expect(await apple(fromApple.idToken)).toMatchObject({ status: 200, body: { user: { provider: 'apple' } } });
  });

  test('an unverified e-mail never becomes an account: a new account needs a verified one', async () => {
    const unverified = await mintProviderUser(emulatorUrl, { email: uniqueAddress('unverified'), emailVerified: false });
    expect(await google(unverified.idToken)).toMatchObject({
      status: 403,
      body: { success: false, error: 'Your Google account has no verified e-mail address, which an account here needs.', code: 'no_verified_email' },
    });
    expect(await api.database.db.select().from(users)).toHaveLength(0);
  });

  test("Apple: the e-mail comes from the token, never the body; the body's name fills only the first sign-in", async () => {
    const email = uniqueAddress('apple-relay');
    const minted = await mintProviderUser(emulatorUrl, { email, provider: 'apple.com', name: null });
    const first = await apple(minted.idToken, { email: 'victim@example.com', fullName: '  Grace Hopper ' });
    expect(first).toMatchObject({ status: 200, body: { user: { email, name: 'Grace Hopper', provider: 'apple' } } });
    const later = await apple(minted.idToken, { email: 'victim@example.com', fullName: 'Mallory' });
    expect(later.body.user).toEqual(first.body.user);
    const [row] = await api.database.db.select().from(users);
    expect(row).toMatchObject({ email, name: 'Grace Hopper' });
  });

  test("Apple: the body's e-mail and name are validated", async () => {
    const minted = await mintProviderUser(emulatorUrl, { email: uniqueAddress('apple-bad'), provider: 'apple.com' });
    expect(await apple(minted.idToken, { email: 'not an address' })).toMatchObject({
      status: 400,
      body: { success: false, error: 'Invalid request: email must be an e-mail address.', code: 'validation_failed' },
    });
    expect(await apple(minted.idToken, { fullName: 'x'.repeat(257) })).toMatchObject({
      status: 400,
      body: { success: false, error: 'Invalid request: fullName must be at most 256 characters.', code: 'validation_failed' },
    });
    expect(await api.database.db.select().from(users)).toHaveLength(0);
  });

  test('the recently-deleted cool-down also holds for a new identity with the same e-mail address', async () => {
    const email = uniqueAddress('returning');
    const original = await mintProviderUser(emulatorUrl, { email, provider: 'google.com' });
    const signedIn = await google(original.idToken);
    const user = signedIn.body.user as { id: string; email: string };
    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', {
      email: user.email,
      userId: user.id,
      sessionToken: signedIn.body.sessionToken,
    });
    expect(deleted.status).toBe(200);

    // Another identity (Apple this time) claiming the same address, in other letter case.
    const other = await mintProviderUser(emulatorUrl, { email: email.toUpperCase(), provider: 'apple.com', sub: `other-${email}` });
    const refused = await apple(other.idToken);
    expect(refused.status).toBe(403);
    expect(String(refused.body.error)).toContain('recently deleted');
    // A different address is not held back.
    const stranger = await mintProviderUser(emulatorUrl, { email: uniqueAddress('stranger'), provider: 'apple.com' });
    expect((await apple(stranger.idToken)).status).toBe(200);
  });

  test('create-checkout and cancel check revocation: a user signed out everywhere is refused', async () => {
    const minted = await mintProviderUser(emulatorUrl, { email: uniqueAddress('revoked') });
    expect((await google(minted.idToken)).status).toBe(200);
    // Firebase compares whole seconds: the revocation must come after the token's auth_time second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await emulatorAdmin(emulatorHost).revokeRefreshTokens(minted.uid);
    for (const url of ['/api/subscription/create-checkout', '/api/subscription/cancel']) {
      expect(await call(api.app, 'POST', url, { idToken: minted.idToken, email: minted.email })).toMatchObject({
        status: 401,
        body: { success: false, error: 'Your sign-in could not be verified. Please sign in again.', code: 'token_invalid' },
      });
    }
  });
});

describe('when Google cannot be reached', () => {
  test("a real (non-emulator) verifier that cannot fetch Google's keys answers 503, not 401", async () => {
    // This machine (and CI) has no route to www.googleapis.com; firebase-admin reports that as
    // auth/argument-error "Error while making request". The emulator switch is process-wide: lift it.
    const saved = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const projectId = 'veil-offline-test';
    const api = await createTestApi({ driver: 'pglite', verifier: createFirebaseVerifier(projectId, undefined) });
    try {
      const now = Math.floor(Date.now() / 1000);
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const idToken = `${part({ alg: 'RS256', kid: 'some-key', typ: 'JWT' })}.${part({
        iss: `https://securetoken.google.com/${projectId}`,
        aud: projectId,
        sub: 'someone',
        iat: now - 10,
        auth_time: now - 10,
        exp: now + 3000,
      })}.c2lnbmF0dXJl`;
      expect(await call(api.app, 'POST', '/api/auth/google/signin', { idToken })).toMatchObject({
        status: 503,
        body: { success: false, error: 'Sign-in is temporarily unavailable. Please try again in a moment.', code: 'identity_unavailable' },
      });
      // A token that is plainly malformed is still the caller's fault.
      expect((await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'not-a-token' })).status).toBe(401);
    } finally {
      if (saved !== undefined) process.env.FIREBASE_AUTH_EMULATOR_HOST = saved;
      await api.close();
    }
  }, 60_000);
});

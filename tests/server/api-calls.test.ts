/**
 * Every /api call's success and each of its errors, against a real database (PGlite always, PostgreSQL
 * when it answers) and real Firebase ID tokens from the Auth emulator.
 */
import { describe, expect, inject, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { count, eq } from 'drizzle-orm';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { call, createTestApi } from '../support/server-harness';
import { deletionTombstones, handoffTokens, paymentEvents, sessions, subscriptions, users } from '../../server/db/schema';
import { createSession, dayOf } from '../../server/domain/accounts/sessions';
import { sha256 } from '../../server/domain/tokens';

const emulatorHost = inject('authEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;

/** A fresh provider user each time, so tests never see each other's accounts. */
const mint = (label: string, provider: 'google.com' | 'apple.com' = 'google.com') => {
  return mintProviderUser(emulatorUrl, { email: uniqueAddress(label), provider, name: 'Ada Lovelace' });
};

describeApi('API', { layer: 'http', emulatorHost, env: { HANDOFF_TTL: '1', DELETED_ACCOUNT_COOLDOWN: '2' } }, (api) => {
  async function signIn(label = 'user') {
    const minted = await mint(label);
    const { status, body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    expect(status).toBe(200);
    return { minted, sessionToken: body.sessionToken as string, user: body.user as { id: string; email: string; name: string } };
  }

  test('GET /api/health answers ok with the database reachable; /api/live touches nothing', async () => {
    expect(await call(api.app, 'GET', '/api/health')).toMatchObject({ status: 200, body: { ok: true, database: true } });
    expect(await call(api.app, 'GET', '/api/live')).toMatchObject({ status: 200, body: { ok: true } });
  });

  describe('sign-in', () => {
    test('a new Google user is created instantly and gets a session; the same identity signs in again', async () => {
      const minted = await mint('google');
      const first = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        success: true,
        subscription: null,
        user: { email: minted.email, name: 'Ada Lovelace', provider: 'google' },
      });
      expect(first.body.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const second = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
      expect((second.body.user as { id: string }).id).toBe((first.body.user as { id: string }).id);
      expect(second.body.sessionToken).not.toBe(first.body.sessionToken);
      const [row] = await api.database.db.select({ value: count() }).from(users);
      expect(row?.value).toBe(1);
      // Only the hash of a session token is stored.
      const stored = await api.database.db.select().from(sessions);
      expect(stored.map((row) => row.tokenHash).sort()).toEqual(
        [sha256(first.body.sessionToken as string), sha256(second.body.sessionToken as string)].sort(),
      );
    });

    test("Apple: the account keeps the e-mail and name of the first sign-in", async () => {
      const minted = await mint('apple', 'apple.com');
      const body = { identityToken: minted.idToken, userIdentifier: minted.uid, email: minted.email, fullName: 'Ada Lovelace' };
      const first = await call(api.app, 'POST', '/api/auth/apple/signin', body);
      expect(first.body).toMatchObject({ success: true, user: { email: minted.email, provider: 'apple' } });
      const later = await call(api.app, 'POST', '/api/auth/apple/signin', { ...body, email: null, fullName: null });
      expect(later.body.user).toEqual(first.body.user);
    });

    test.each([
      ['garbage', 'not-a-token'],
      ['an unsigned token the emulator never issued', `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ sub: 'x', aud: 'demo-veil' })).toString('base64url')}.`],
    ])('%s is refused with 401 JSON', async (_name, idToken) => {
      const { status, body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken });
      expect(status).toBe(401);
      expect(body).toEqual({ success: false, error: 'Your sign-in could not be verified. Please sign in again.', code: 'token_invalid' });
    });

    test('a token whose payload was altered after issue is refused', async () => {
      const minted = await mint('forger');
      const [header, payload, signature] = minted.idToken.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, aud: 'another-project' })).toString('base64url')}.${signature}`;
      expect((await call(api.app, 'POST', '/api/auth/google/signin', { idToken: forged })).status).toBe(401);
    });

    test('a missing idToken is a 400 saying so', async () => {
      expect(await call(api.app, 'POST', '/api/auth/google/signin', {})).toMatchObject({
        status: 400,
        body: { success: false, error: 'Invalid request: idToken is required.', code: 'validation_failed' },
      });
    });
  });

  describe('sessions', () => {
    test('verify answers the user and subscription; unknown tokens get 401', async () => {
      const { sessionToken, user } = await signIn('verify');
      expect(await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).toMatchObject({
        status: 200,
        body: { success: true, user, subscription: null },
      });
      expect(await call(api.app, 'POST', '/api/auth/verify', { sessionToken: 'x'.repeat(43) })).toMatchObject({
        status: 401,
        body: { success: false },
      });
    });

    test('verify writes the last use to the day, at most once a day, and answers exactly the contract (issue 31)', async () => {
      const { sessionToken, user } = await signIn('last-use');
      const lastUse = async () =>
        (await api.database.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(sessionToken))))[0]!.lastUsedAt.getTime();
      const today = dayOf(new Date()).getTime();
      expect(await lastUse()).toBe(today);
      const answer = await call(api.app, 'POST', '/api/auth/verify', { sessionToken });
      expect(answer.body).toEqual({ success: true, user, subscription: null });
      expect(await lastUse()).toBe(today);
      const yesterday = dayOf(new Date(Date.now() - 86_400_000));
      await api.database.db.update(sessions).set({ lastUsedAt: yesterday }).where(eq(sessions.tokenHash, sha256(sessionToken)));
      expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).status).toBe(200);
      expect(await lastUse()).toBe(today);
      // The database itself refuses a time of day.
      await expect(api.database.exec(`UPDATE sessions SET last_used_at = now() - interval '1 minute'`)).rejects.toThrow(/sessions_last_used_day/);
    });

    test('verify answers byte for byte, and the next verify sees every change to the session and subscription', async () => {
      // Written straight into the database: this file's calls already use up the per-address sign-in limit.
      const [user] = await api.database.db
        .insert(users)
        .values({ id: 'usr_bytes', identitySubject: 'bytes', provider: 'google', email: 'bytes@example.com', name: 'Ada Lovelace' })
        .returning();
      const { token: sessionToken } = await createSession(api.database.db, user!.id, 3600);
      const verify = async () => {
        const reply = await api.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { sessionToken } });
        return { status: reply.statusCode, payload: reply.body };
      };
      const userJson = '{"id":"usr_bytes","email":"bytes@example.com","name":"Ada Lovelace","provider":"google"}';
      expect(await verify()).toEqual({ status: 200, payload: `{"success":true,"user":${userJson},"subscription":null}` });

      const ended = { userId: 'usr_bytes', provider: 'local' as const, providerUpdatedAt: 1 };
      await api.database.db.insert(subscriptions).values({
        ...ended,
        providerSubscriptionId: 'sub_old',
        status: 'cancelled',
        plan: 'yearly',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: new Date('2025-01-02T03:04:05.678Z'),
        updatedAt: new Date('2025-01-02T03:04:05.678Z'),
      });
      expect(await verify()).toEqual({
        status: 200,
        payload: `{"success":true,"user":${userJson},"subscription":{"status":"cancelled","plan":"yearly","cancelAtPeriodEnd":true,"endDate":"2025-01-02T03:04:05.678Z"}}`,
      });

      // A live subscription is the one shown, even when the ended one changed later; no plan, no end date.
      await api.database.db.insert(subscriptions).values({ ...ended, providerSubscriptionId: 'sub_new', status: 'active', updatedAt: new Date('2024-01-01T00:00:00Z') });
      await api.database.db.update(subscriptions).set({ updatedAt: new Date() }).where(eq(subscriptions.providerSubscriptionId, 'sub_old'));
      expect((await verify()).payload).toBe(`{"success":true,"user":${userJson},"subscription":{"status":"active","cancelAtPeriodEnd":false}}`);
      await api.database.db.update(subscriptions).set({ status: 'past_due' }).where(eq(subscriptions.providerSubscriptionId, 'sub_new'));
      expect((await verify()).payload).toBe(`{"success":true,"user":${userJson},"subscription":{"status":"past_due","cancelAtPeriodEnd":false}}`);
      await api.database.db.update(users).set({ name: 'Ada King' }).where(eq(users.id, 'usr_bytes'));
      expect((await verify()).payload).toContain('"name":"Ada King"');

      // Revoked behind the API's back (another instance signing it out): refused on the very next call.
      await api.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.tokenHash, sha256(sessionToken)));
      const refused = await verify();
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.payload)).toMatchObject({ success: false, code: 'session_invalid' });
    });

    test('sign-out revokes the session, and signing out twice is still fine', async () => {
      const { sessionToken } = await signIn('signout');
      expect(await call(api.app, 'POST', '/api/auth/signout', { sessionToken })).toMatchObject({ status: 200, body: { success: true } });
      expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).status).toBe(401);
      expect((await call(api.app, 'POST', '/api/auth/signout', { sessionToken })).status).toBe(200);
    });

    test('an expired session is refused', async () => {
      const { sessionToken } = await signIn('expired');
      await api.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
      expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).status).toBe(401);
    });
  });

  describe('desktop hand-off and devices', () => {
    test('a hand-off token redeems once for a desktop session that is listed and can be signed out', async () => {
      const { sessionToken, user } = await signIn('handoff');
      const handoff = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
      expect(handoff.body).toMatchObject({ success: true });
      const handoffToken = handoff.body.handoffToken as string;
      const [row] = await api.database.db.select().from(handoffTokens);
      expect(row!.tokenHash).toBe(sha256(handoffToken));

      const redeemed = await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'MacBook Air' });
      expect(redeemed).toMatchObject({ status: 200, body: { success: true, user } });
      const again = await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'MacBook Air' });
      expect(again.status).toBe(401);

      const listed = await call(api.app, 'POST', '/api/auth/devices', { sessionToken });
      expect(listed.body.devices).toEqual([expect.objectContaining({ deviceName: 'MacBook Air' })]);
      const deviceId = (listed.body.devices as Array<{ id: string }>)[0]!.id;
      expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId })).status).toBe(200);
      expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken: redeemed.body.sessionToken })).status).toBe(401);
      expect((await call(api.app, 'POST', '/api/auth/devices', { sessionToken })).body.devices).toEqual([]);
      expect((await call(api.app, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId })).status).toBe(404);
    });

    test('a hand-off token expires (HANDOFF_TTL)', async () => {
      const { sessionToken } = await signIn('late');
      const { body } = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(
        (await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken: body.handoffToken, deviceName: 'PC' })).status,
      ).toBe(401);
    });
  });

  describe('checkout, local payment and cancel', () => {
    async function pay(idToken: string) {
      const checkout = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken, email: 'ignored@example.com' });
      expect(checkout.status).toBe(200);
      const path = new URL(checkout.body.url as string).pathname;
      expect(path).toMatch(/^\/api\/checkout\/local\/cs_local_/);
      return path;
    }

    test('create-checkout -> hosted page -> Pay activates a year; paying twice charges once', async () => {
      const { minted, sessionToken } = await signIn('buyer');
      const page = await pay(minted.idToken);
      const html = await api.app.inject({ method: 'GET', url: page });
      expect(html.statusCode).toBe(200);
      expect(html.body).toContain('Pay $100');
      expect(html.body).toContain('Cancel');

      const paid = await api.app.inject({ method: 'POST', url: `${page}/pay`, payload: 'card=4242', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe('/success');
      const verified = await call(api.app, 'POST', '/api/auth/verify', { sessionToken });
      const subscription = verified.body.subscription as { status: string; endDate: string; cancelAtPeriodEnd: boolean };
      expect(subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
      const yearAhead = new Date();
      yearAhead.setUTCFullYear(yearAhead.getUTCFullYear() + 1);
      expect(Math.abs(new Date(subscription.endDate).getTime() - yearAhead.getTime())).toBeLessThan(60_000);

      const twice = await api.app.inject({ method: 'POST', url: `${page}/pay` });
      expect(twice.statusCode).toBe(303);
      expect(await api.database.db.select().from(subscriptions)).toHaveLength(1);

      expect(await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email: minted.email })).toMatchObject({
        status: 409,
        body: { success: false, error: 'You already have an active subscription.', code: 'subscription_exists' },
      });

      const cancelled = await call(api.app, 'POST', '/api/subscription/cancel', { idToken: minted.idToken });
      expect(cancelled).toMatchObject({ status: 200, body: { success: true, subscription: { status: 'active', cancelAtPeriodEnd: true } } });
    });

    test('Cancel on the hosted page goes to /cancel and creates no subscription', async () => {
      const { minted } = await signIn('undecided');
      const page = await pay(minted.idToken);
      const cancelled = await api.app.inject({ method: 'POST', url: `${page}/cancel` });
      expect(cancelled.statusCode).toBe(303);
      expect(cancelled.headers.location).toBe('/cancel');
      expect(await api.database.db.select().from(subscriptions)).toHaveLength(0);
      expect((await api.app.inject({ method: 'POST', url: `${page}/pay` })).headers.location).toBe('/cancel');
    });

    test('cancel without a subscription is a 404; bad tokens are 401; an unknown checkout is 404', async () => {
      const { minted } = await signIn('nothing');
      expect(await call(api.app, 'POST', '/api/subscription/cancel', { idToken: minted.idToken })).toMatchObject({
        status: 404,
        body: { success: false, error: 'No active subscription found.', code: 'no_subscription' },
      });
      expect((await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'bad', email: 'a@b.c' })).status).toBe(401);
      expect((await api.app.inject({ method: 'GET', url: '/api/checkout/local/cs_local_missing' })).statusCode).toBe(404);
    });
  });

  describe('account deletion', () => {
    test('needs the session of that very account, with its e-mail and id', async () => {
      const alice = await signIn('alice');
      const bob = await signIn('bob');
      for (const body of [
        { email: alice.user.email, userId: alice.user.id, sessionToken: bob.sessionToken },
        { email: bob.user.email, userId: alice.user.id, sessionToken: alice.sessionToken },
      ]) {
        expect(await call(api.app, 'DELETE', '/api/auth/delete-account', body)).toMatchObject({ status: 403, body: { success: false } });
      }
      expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email: alice.user.email, userId: alice.user.id })).status).toBe(400);
      expect(await api.database.db.select().from(users)).toHaveLength(2);
    });

    test('deletes everything, cancels the subscription, and refuses a sign-up within the cool-down', async () => {
      const { minted, sessionToken, user } = await signIn('leaving');
      const page = (await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email: minted.email })).body.url as string;
      await api.app.inject({ method: 'POST', url: `${new URL(page).pathname}/pay` });
      await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });

      const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', { email: user.email, userId: user.id, sessionToken });
      expect(deleted).toMatchObject({ status: 200, body: { success: true } });
      const { db } = api.database;
      for (const table of [users, sessions, handoffTokens, subscriptions]) expect(await db.select().from(table)).toHaveLength(0);
      const [tombstone] = await db.select().from(deletionTombstones).where(eq(deletionTombstones.subjectHash, sha256(minted.uid)));
      expect(tombstone).toBeDefined();
      // The local provider ended the subscription at once, through the same signed-event path as Stripe.
      const ledger = await db.select().from(paymentEvents);
      expect(ledger.map((event) => event.type)).toContain('customer.subscription.deleted');

      const again = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
      expect(again.status).toBe(403);
      expect(String(again.body.error)).toContain('recently deleted');
      expect(again.body.code).toBe('recently_deleted');
      // It says until when (issue 22 item 9): the first whole UTC day after the cool-down (2 s here).
      const over = new Date(tombstone!.deletedAt.getTime() + 2000);
      const midnight = Date.UTC(over.getUTCFullYear(), over.getUTCMonth(), over.getUTCDate());
      const day = new Date(midnight < over.getTime() ? midnight + 86_400_000 : midnight);
      const dayText = day.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
      expect(again.body.error).toBe(`This account was recently deleted. You can create a new account with it on ${dayText}.`);

      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken })).status).toBe(200);
    });
  });

  describe('bad input', () => {
    test('unknown calls, malformed JSON, wrong content types and oversized bodies get JSON 4xx', async () => {
      expect(await call(api.app, 'GET', '/api/nope')).toMatchObject({ status: 404, body: { success: false, code: 'no_such_call' } });
      const malformed = await api.app.inject({ method: 'POST', url: '/api/auth/verify', payload: '{"sessionToken":', headers: { 'content-type': 'application/json' } });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ success: false, error: 'Invalid request: the body is not valid JSON.', code: 'validation_failed' });
      const text = await api.app.inject({ method: 'POST', url: '/api/auth/verify', payload: 'hello', headers: { 'content-type': 'text/plain' } });
      expect(text.statusCode).toBe(400);
      expect(text.json()).toEqual({ success: false, error: 'Invalid request: a JSON object body is required.', code: 'validation_failed' });
      const xml = await api.app.inject({ method: 'POST', url: '/api/auth/verify', payload: '<a/>', headers: { 'content-type': 'application/xml' } });
      expect(xml.statusCode).toBe(415);
      expect(xml.json()).toEqual({ success: false, error: 'Unsupported content type: send JSON.', code: 'unsupported_media_type' });
      const huge = await call(api.app, 'POST', '/api/auth/verify', { sessionToken: 'x'.repeat(100_000) });
      expect(huge.status).toBe(413);
      expect(huge.body).toMatchObject({ success: false, error: 'Request body is too large.', code: 'body_too_large' });
      expect(JSON.stringify(huge.body)).not.toContain('at ');
    });
  });
});

describe('hardening', () => {
  test('the sign-in calls are rate limited with a JSON 429 the SPA maps to "Too many attempts"', async () => {
    const api = await createTestApi({ driver: 'pglite', emulatorHost, env: { RATE_LIMIT_SIGN_IN: '3' } });
    try {
      const statuses: number[] = [];
      let last: Record<string, unknown> = {};
      for (let i = 0; i < 4; i += 1) {
        const answer = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'x' });
        statuses.push(answer.status);
        last = answer.body;
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect(last).toEqual({ success: false, error: 'Too many attempts. Please wait a moment and try again.', code: 'rate_limited' });
    } finally {
      await api.close();
    }
  });

  test('logs never contain a token', async () => {
    const lines: string[] = [];
    const originalWrite = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (originalWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    const api = await createTestApi({ driver: 'pglite', emulatorHost, logger: true, env: { LOG_LEVEL: 'info' } });
    try {
      const minted = await mint('logged');
      const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
      const sessionToken = signIn.body.sessionToken as string;
      const handoff = await call(api.app, 'POST', '/api/auth/handoff', { sessionToken });
      await call(api.app, 'POST', '/api/auth/verify', { sessionToken });
      await api.app.inject({ method: 'GET', url: `/api/nope?token=${handoff.body.handoffToken}` });
      const log = lines.join('');
      expect(log).toContain('request completed');
      for (const secret of [minted.idToken, sessionToken, handoff.body.handoffToken as string]) expect(log).not.toContain(secret);
    } finally {
      process.stdout.write = originalWrite;
      await api.close();
    }
  });
});

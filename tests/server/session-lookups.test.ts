/**
 * The calls carrying a session token in their body (hand-off, devices, revoke a device, deletion) read the
 * session once per request: the same lookup proves the account for its per-account rate limit and is the
 * session the call acts for. Counted at the database client: every query the API sends goes through it.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, test, vi, type MockInstance } from 'vitest';
import { describeApi } from '../support/describe-api';
import { failures } from '../../server/domain/errors';
import { call } from '../support/server-harness';

/** Accepts `valid-<name>` as the identity <name>: these tests are about session lookups, not identity. */
const verifier = {
  verify: async (token: string) => {
    if (!token.startsWith('valid-')) throw failures.invalidToken();
    return { subject: token, email: `${token}@example.com`, name: token };
  },
};

/** A statement reading sessions by a token's hash, whatever else it selects or joins. */
const SESSION_BY_TOKEN = /^select\b.*\bfrom "sessions"\s.*"sessions"\."token_hash" = \$\d/is;

describeApi('one session lookup per call', { layer: 'http', verifier, env: { RATE_LIMIT_SIGN_IN: '1000', RATE_LIMIT_SCALE: '100' } }, (api) => {
  let query: MockInstance<(...args: unknown[]) => unknown>;
  beforeAll(() => {
    // PGlite's client or pg's pool: drizzle and the raw statements both call its query(text | {text}, ...).
    const client = (api.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    query = vi.spyOn(client, 'query');
  });

  /** The answer to one call, and how many times the API read a session by token while answering it. */
  async function lookupsOf(method: 'POST' | 'DELETE', url: string, payload: object) {
    query.mockClear();
    const answer = await call(api.app, method, url, payload);
    const texts = query.mock.calls.map(([first]) => (typeof first === 'string' ? first : String((first as { text?: unknown }).text)));
    return { status: answer.status, body: answer.body, lookups: texts.filter((text) => SESSION_BY_TOKEN.test(text)).length };
  }

  async function signIn() {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: `valid-${randomUUID()}` });
    return { sessionToken: body.sessionToken as string, user: body.user as { id: string; email: string } };
  }

  test('hand-off, devices, revoke a device and deletion each read the session once; redeeming reads none', async () => {
    const { sessionToken, user } = await signIn();
    const handoff = await lookupsOf('POST', '/api/auth/handoff', { sessionToken });
    expect(handoff).toMatchObject({ status: 200, body: { success: true }, lookups: 1 });

    // Redeeming reads the hand-off token, not a session: the new desktop session's account comes from it.
    const redeem = await lookupsOf('POST', '/api/auth/handoff/redeem', { handoffToken: handoff.body.handoffToken, deviceName: 'MacBook Air' });
    expect(redeem).toMatchObject({ status: 200, body: { success: true, user: { id: user.id, email: user.email } }, lookups: 0 });
    const devices = await lookupsOf('POST', '/api/auth/devices', { sessionToken });
    expect(devices).toMatchObject({ status: 200, body: { devices: [expect.objectContaining({ deviceName: 'MacBook Air' })] }, lookups: 1 });

    const deviceId = (devices.body.devices as Array<{ id: string }>)[0]!.id;
    expect(await lookupsOf('POST', '/api/auth/devices/revoke', { sessionToken, deviceId })).toMatchObject({ status: 200, lookups: 1 });

    const deletion = await lookupsOf('DELETE', '/api/auth/delete-account', { sessionToken, userId: user.id, email: user.email });
    expect(deletion).toMatchObject({ status: 200, body: { success: true }, lookups: 1 });
  });

  test('a token that names no live session is refused after one lookup', async () => {
    const { sessionToken } = await signIn();
    await call(api.app, 'POST', '/api/auth/signout', { sessionToken });
    expect(await lookupsOf('POST', '/api/auth/devices', { sessionToken })).toEqual({
      status: 401,
      body: { success: false, error: 'Your session has expired. Please sign in again.', code: 'session_invalid' },
      lookups: 1,
    });
  });

  test('a body the schema refuses is answered before any lookup', async () => {
    expect(await lookupsOf('POST', '/api/auth/handoff', { sessionToken: 42 })).toMatchObject({
      status: 400,
      body: { success: false, code: 'validation_failed' },
      lookups: 0,
    });
  });
});

/**
 * Issue 10 §5: control characters (U+0000 first of all: PostgreSQL refuses it) never reach the database:
 * every contract string and every path id answers 400 JSON naming the field; validation messages say
 * what is wrong; Fastify's own framing errors answer {success:false,error} JSON too.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { handoffTokens, sessions, users } from '../../server/db/schema';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { describeApi } from '../support/describe-api';
import { call, createTestApi, type TestApi } from '../support/server-harness';

const emulatorHost = inject('authEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;


describeApi('bad input', { layer: 'http', emulatorHost, env: { RATE_LIMIT_SIGN_IN: '1000' } }, (api) => {

  async function signIn(provider: 'google.com' | 'apple.com' = 'google.com') {
    const minted = await mintProviderUser(emulatorUrl, { email: uniqueAddress('input'), provider });
    const route = provider === 'google.com' ? '/api/auth/google/signin' : '/api/auth/apple/signin';
    const body = provider === 'google.com' ? { idToken: minted.idToken } : { identityToken: minted.idToken, userIdentifier: minted.uid };
    const answer = await call(api.app, 'POST', route, body);
    return { minted, sessionToken: answer.body.sessionToken as string, user: answer.body.user as { id: string; email: string } };
  }

  test('a control character in any string of any call is a 400 naming the field, never a 500', async () => {
    const { minted, sessionToken, user } = await signIn();
    const handoffToken = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body.handoffToken as string;
    const cases: Array<[method: 'POST' | 'DELETE', url: string, body: Record<string, unknown>, field: string]> = [
      ['POST', '/api/auth/google/signin', { idToken: `${minted.idToken}\u0000` }, 'idToken'],
      ['POST', '/api/auth/apple/signin', { identityToken: minted.idToken, userIdentifier: 'x\u0000' }, 'userIdentifier'],
      ['POST', '/api/auth/apple/signin', { identityToken: minted.idToken, userIdentifier: 'x', email: 'a\u0000@b.co' }, 'email'],
      ['POST', '/api/auth/apple/signin', { identityToken: minted.idToken, userIdentifier: 'x', fullName: 'Ada\u0000' }, 'fullName'],
      ['POST', '/api/auth/apple/signin', { identityToken: minted.idToken, userIdentifier: 'x', fullName: 'Ada\u001b[31m' }, 'fullName'],
      ['POST', '/api/auth/verify', { sessionToken: `${sessionToken}\u0000` }, 'sessionToken'],
      ['POST', '/api/auth/signout', { sessionToken: `\u0000${sessionToken}` }, 'sessionToken'],
      ['POST', '/api/auth/handoff', { sessionToken: `${sessionToken}\n` }, 'sessionToken'],
      ['POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Mac\u0000Book' }, 'deviceName'],
      ['POST', '/api/auth/handoff/redeem', { handoffToken: `${handoffToken}\u0000`, deviceName: 'MacBook' }, 'handoffToken'],
      ['POST', '/api/auth/devices', { sessionToken: `${sessionToken}\u007f` }, 'sessionToken'],
      ['POST', '/api/auth/devices/revoke', { sessionToken, deviceId: 'ses_\u0000' }, 'deviceId'],
      ['DELETE', '/api/auth/delete-account', { email: `${user.email}\u0000`, userId: user.id, sessionToken }, 'email'],
      ['DELETE', '/api/auth/delete-account', { email: user.email, userId: `${user.id}\u0000`, sessionToken }, 'userId'],
      ['POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email: 'a\u0000@b.co' }, 'email'],
      ['POST', '/api/subscription/cancel', { idToken: `${minted.idToken}\u0000` }, 'idToken'],
    ];
    for (const [method, url, body, field] of cases) {
      const answer = await call(api.app, method, url, body);
      expect({ url, field, status: answer.status, body: answer.body }).toEqual({
        url,
        field,
        status: 400,
        body: { success: false, error: `Invalid request: ${field} must not contain control characters.`, code: 'validation_failed' },
      });
    }
    // Nothing was written or used up: the account and its one session are as they were, the link unused.
    expect(await api.database.db.select().from(users)).toHaveLength(1);
    expect(await api.database.db.select().from(sessions)).toHaveLength(1);
    const [link] = await api.database.db.select().from(handoffTokens);
    expect(link?.usedAt).toBeNull();
    expect((await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'MacBook' })).status).toBe(200);
  });

  test('a control character in a local checkout id in the path is a 400 JSON', async () => {
    for (const [method, path] of [
      ['GET', '/api/checkout/local/cs_local_%00'],
      ['POST', '/api/checkout/local/cs_local_%00/pay'],
      ['POST', '/api/checkout/local/cs_local_%0A/cancel'],
    ] as const) {
      const answer = await api.app.inject({ method, url: path });
      expect({ path, status: answer.statusCode, body: answer.json() }).toEqual({
        path,
        status: 400,
        body: { success: false, error: 'Invalid request: checkout id is not a valid id.', code: 'validation_failed' },
      });
    }
  });

  test('validation messages say what is wrong with the field', async () => {
    const cases: Array<[url: string, body: unknown, error: string]> = [
      ['/api/auth/verify', { sessionToken: 123 }, 'Invalid request: sessionToken must be a string.'],
      ['/api/auth/verify', { sessionToken: null }, 'Invalid request: sessionToken must be a string.'],
      ['/api/auth/verify', { sessionToken: '' }, 'Invalid request: sessionToken must not be empty.'],
      ['/api/auth/verify', {}, 'Invalid request: sessionToken is required.'],
      ['/api/auth/handoff/redeem', { handoffToken: 'x', deviceName: '   ' }, 'Invalid request: deviceName must not be empty.'],
      ['/api/auth/handoff/redeem', { handoffToken: 'x', deviceName: 'd'.repeat(129) }, 'Invalid request: deviceName must be at most 128 characters.'],
      ['/api/auth/handoff/redeem', { handoffToken: ['x'], deviceName: 7 }, 'Invalid request: handoffToken must be a string; deviceName must be a string.'],
    ];
    for (const [url, body, error] of cases) {
      expect(await call(api.app, 'POST', url, body)).toMatchObject({ status: 400, body: { success: false, error } });
    }
  });
});

describe('framing errors answer the API error shape', () => {
  let api: TestApi;
  let port: number;
  beforeAll(async () => {
    api = await createTestApi({ driver: 'pglite', emulatorHost });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    port = (api.app.server.address() as AddressInfo).port;
  });
  afterAll(() => api?.close());

  function raw(request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      let answer = '';
      socket.on('data', (chunk) => (answer += String(chunk)));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

  test('a URL that cannot be decoded', async () => {
    const answer = await api.app.inject({ method: 'GET', url: '/api/checkout/local/%zz' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ success: false, error: 'Invalid request: the URL is not valid.', code: 'validation_failed' });
  });

  test('a body shorter than its Content-Length is a framing error, not "invalid JSON"', async () => {
    const answer = await api.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: '{"sessionToken":"x"}',
      headers: { 'content-type': 'application/json', 'content-length': '500' },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      success: false,
      error: 'Invalid request: the body does not match its Content-Length header.',
      code: 'bad_http_request',
    });
  });

  test('broken HTTP framing and oversized headers', async () => {
    const broken = await raw('POST /api/auth/verify HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(broken)).toEqual({ success: false, error: 'Invalid request: malformed HTTP.', code: 'bad_http_request' });
    const huge = await raw(`GET /api/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(huge)).toEqual({ success: false, error: 'The request headers are too large.', code: 'bad_http_request' });
  });
});

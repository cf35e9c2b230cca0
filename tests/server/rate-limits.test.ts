/**
 * Rate limits on every call family, per client address and per account, counted in memory and (when one
 * answers) in Redis; and TRUST_PROXY: behind one trusted hop a client cannot rotate X-Forwarded-For to
 * dodge a limit.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sessions } from '../../server/db/schema';
import { failures } from '../../server/domain/errors';
import { dayOf } from '../../server/domain/accounts/sessions';
import { sha256 } from '../../server/domain/tokens';
import { createTestApi, type TestApi } from '../support/server-harness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOO_MANY = { success: false, error: 'Too many attempts. Please wait a moment and try again.', code: 'rate_limited' };

async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    console.log(`[rate-limit tests] no Redis at ${REDIS_URL}: the Redis store is not tested here`);
    return false;
  } finally {
    redis.disconnect();
  }
}
const stores = (await redisAnswers()) ? (['memory', 'redis'] as const) : (['memory'] as const);

/** Accepts `valid-<name>` as the identity <name>: these tests are about counting, not identity. */
const verifier = {
  verify: async (token: string) => {
    if (!token.startsWith('valid-')) throw failures.invalidToken();
    return { subject: token, email: `${token}@example.com`, name: token };
  },
};

let addressSequence = 0;
/** A client address of its own for each use, so tests never share a per-address counter. */
const newAddress = () => {
  addressSequence += 1;
  return `198.51.${Math.floor(addressSequence / 250)}.${(addressSequence % 250) + 1}`;
};

async function send(api: TestApi, method: 'GET' | 'POST' | 'DELETE', url: string, payload: object | undefined, remoteAddress: string, headers = {}) {
  const response = await api.app.inject({ method, url, remoteAddress, headers, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown>, retryAfter: response.headers['retry-after'] };
}

function expectTooMany(answer: { status: number; body: unknown; retryAfter: unknown }) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual(TOO_MANY);
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
}

describe.each(stores)('rate limits (%s counters)', (store) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({
      driver: 'pglite',
      verifier,
      env: {
        RATE_LIMIT_SIGN_IN: '2',
        // One twentieth of the production limits: verify 30 per address and 15 per account a minute, etc.
        RATE_LIMIT_SCALE: '0.05',
        ...(store === 'redis' ? { REDIS_URL, REDIS_KEY_PREFIX: `veil-test-${randomUUID()}:` } : {}),
      },
    });
  });
  afterAll(() => api?.close());

  async function signIn(name: string) {
    const answer = await send(api, 'POST', '/api/auth/google/signin', { idToken: `valid-${name}-${randomUUID()}` }, newAddress());
    expect(answer.status).toBe(200);
    return answer.body as { sessionToken: string; user: { id: string; email: string } };
  }

  // [method, url, calls allowed per address per minute at this scale]
  test.each([
    ['POST', '/api/auth/google/signin', 2],
    ['POST', '/api/auth/apple/signin', 2],
    ['POST', '/api/auth/handoff', 2],
    ['POST', '/api/auth/handoff/redeem', 2],
    ['POST', '/api/auth/verify', 30],
    ['POST', '/api/auth/signout', 3],
    ['POST', '/api/auth/devices', 3],
    ['POST', '/api/auth/devices/revoke', 3],
    ['DELETE', '/api/auth/delete-account', 1],
    ['POST', '/api/subscription/create-checkout', 1],
    ['POST', '/api/subscription/cancel', 1],
    ['GET', '/api/health', 60],
    ['POST', '/api/webhooks/payments', 60],
  ] as const)('%s %s: %i calls a minute per address, then a JSON 429 with Retry-After', async (method, url, allowed) => {
    const address = newAddress();
    const body = method === 'GET' ? undefined : {};
    for (let i = 0; i < allowed; i += 1) expect((await send(api, method, url, body, address)).status).not.toBe(429);
    expectTooMany(await send(api, method, url, body, address));
    // Another client is not affected.
    expect((await send(api, method, url, body, newAddress())).status).not.toBe(429);
  });

  test('per account: sign-in, checkout and cancel share one allowance per verified identity, whatever the address', async () => {
    const idToken = `valid-identity-${randomUUID()}`;
    expect((await send(api, 'POST', '/api/auth/google/signin', { idToken }, newAddress())).status).toBe(200);
    expectTooMany(await send(api, 'POST', '/api/auth/google/signin', { idToken }, newAddress()));
    expectTooMany(await send(api, 'POST', '/api/subscription/create-checkout', { idToken, email: 'x@example.com' }, newAddress()));
    // A token that fails verification is refused as such and uses up nobody's allowance.
    expect((await send(api, 'POST', '/api/auth/google/signin', { idToken: idToken.replace('valid-', 'forged-') }, newAddress())).status).toBe(401);
  });

  test('per account: verify, 15 a minute at this scale, from any number of addresses', async () => {
    const { sessionToken, user } = await signIn('verify');
    for (let i = 0; i < 15; i += 1) {
      expect(await send(api, 'POST', '/api/auth/verify', { sessionToken }, newAddress())).toMatchObject({ status: 200, body: { user } });
    }
    expectTooMany(await send(api, 'POST', '/api/auth/verify', { sessionToken }, newAddress()));
  });

  test('per account: hand-off, devices and deletion', async () => {
    const { sessionToken, user } = await signIn('session-calls');
    expect((await send(api, 'POST', '/api/auth/handoff', { sessionToken }, newAddress())).status).toBe(200);
    expectTooMany(await send(api, 'POST', '/api/auth/handoff', { sessionToken }, newAddress()));

    expect((await send(api, 'POST', '/api/auth/devices', { sessionToken }, newAddress())).status).toBe(200);
    expect((await send(api, 'POST', '/api/auth/devices/revoke', { sessionToken, deviceId: 'nope' }, newAddress())).status).toBe(404);
    expectTooMany(await send(api, 'POST', '/api/auth/devices', { sessionToken }, newAddress()));

    const wrongEmail = { sessionToken, userId: user.id, email: 'someone-else@example.com' };
    expect((await send(api, 'DELETE', '/api/auth/delete-account', wrongEmail, newAddress())).status).toBe(403);
    expectTooMany(await send(api, 'DELETE', '/api/auth/delete-account', { ...wrongEmail, email: user.email }, newAddress()));
  });

  test("per account: a call refused by its account's limit is not recorded as a use of the session", async () => {
    const { sessionToken } = await signIn('last-use');
    for (let i = 0; i < 2; i += 1) expect((await send(api, 'POST', '/api/auth/devices', { sessionToken }, newAddress())).status).toBe(200);
    const bySession = eq(sessions.tokenHash, sha256(sessionToken));
    const yesterday = dayOf(new Date(Date.now() - 86_400_000));
    await api.database.db.update(sessions).set({ lastUsedAt: yesterday }).where(bySession);
    expectTooMany(await send(api, 'POST', '/api/auth/devices', { sessionToken }, newAddress()));
    expect((await api.database.db.select().from(sessions).where(bySession))[0]!.lastUsedAt).toEqual(yesterday);
  });
});

describe('TRUST_PROXY', () => {
  const LOAD_BALANCER = '10.0.0.7';

  async function signInStatuses(api: TestApi, attempts: Array<{ socket: string; forwardedFor?: string }>) {
    const statuses: number[] = [];
    for (const { socket, forwardedFor } of attempts) {
      const headers = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
      statuses.push((await send(api, 'POST', '/api/auth/google/signin', { idToken: 'x' }, socket, headers)).status);
    }
    return statuses;
  }
  /** What a client sends itself (rotating), followed by what the load balancer appends: the real address. */
  const rotating = (client: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({ socket: LOAD_BALANCER, forwardedFor: `203.0.113.${i + 1}, ${client}` }));

  test.each([
    ['a hop count', '1'],
    ['the proxy address', LOAD_BALANCER],
    ['a proxy range', '10.0.0.0/8'],
  ])('trusted as %s, a client rotating X-Forwarded-For still meets the limit; other clients do not', async (_name, trustProxy) => {
    const api = await createTestApi({ driver: 'pglite', verifier, env: { TRUST_PROXY: trustProxy, RATE_LIMIT_SIGN_IN: '3' } });
    try {
      expect(await signInStatuses(api, rotating('192.0.2.44', 4))).toEqual([401, 401, 401, 429]);
      expect(await signInStatuses(api, rotating('192.0.2.45', 1))).toEqual([401]);
    } finally {
      await api.close();
    }
  });

  test('with a proxy list, a client reaching the API directly is counted by its own address, whatever it forwards', async () => {
    const api = await createTestApi({ driver: 'pglite', verifier, env: { TRUST_PROXY: LOAD_BALANCER, RATE_LIMIT_SIGN_IN: '3' } });
    try {
      const direct = Array.from({ length: 4 }, (_, i) => ({ socket: '192.0.2.60', forwardedFor: `203.0.113.${i + 1}` }));
      expect(await signInStatuses(api, direct)).toEqual([401, 401, 401, 429]);
    } finally {
      await api.close();
    }
  });
});

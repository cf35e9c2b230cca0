/**
 * Issue 23, items 1, 2 and 5: the API rides out its dependencies' bad days. PostgreSQL dropping the
 * API's connections (a restart, a failover: pg_terminate_backend) does not end the process, the request
 * that lost its connection answers a clean 503 and the next one succeeds; a stalled PostgreSQL (a proxy
 * that stops delivering) answers 503 within seconds and /api/ready names it; a Redis that never answers,
 * or cannot be reached at start, neither stops the API from starting nor holds a call, and the limits
 * are counted in memory meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { createFirebaseVerifier } from '../../server/identity/verifier';
import { startApiProcess, TIMEOUT_WITH_API_PROCESS_START, urlWithSchema, type ApiProcess } from '../support/api-process';
import { mintProviderUser } from '../support/auth-emulator';
import { call, createTestApi, migratedDataDir, postgresAvailable, TEST_DATABASE_URL, type TestApi } from '../support/server-harness';
import { closedPort, startFreezableProxy, startSilentServer, type FreezableProxy } from '../support/tcp-stand-ins';
import { onThisMachine } from '../support/machine-slowness';

const emulatorHost = inject('authEmulatorHost');
const noPostgres = !(await postgresAvailable());
const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const noRedis = !(await (async () => {
  const redis = new Redis(REDIS.href, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
})());

const UNAVAILABLE = {
  success: false,
  error: 'The service is briefly unavailable. Please try again in a moment.',
  code: 'service_unavailable',
};

async function signIn(post: (path: string, body: unknown) => Promise<{ status: number; body: Record<string, unknown> }>) {
  const minted = await mintProviderUser(`http://${emulatorHost}`, { email: `ops.${randomUUID()}@example.com` });
  const answer = await post('/api/auth/google/signin', { idToken: minted.idToken });
  expect(answer.status).toBe(200);
  return answer.body.sessionToken as string;
}

/**
 * Calls until one succeeds. A request may still be handed a connection whose end the pool has not heard
 * yet (PostgreSQL's notice is in flight): it must answer the clean 503, and the pool (10 connections)
 * must be whole again within a few calls.
 */
async function untilServed(send: () => Promise<{ status: number; body: Record<string, unknown> }>) {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const answer = await send();
    if (answer.status === 200) return;
    expect(answer).toEqual({ status: 503, body: UNAVAILABLE });
  }
  throw new Error('never served again');
}

describe.skipIf(noPostgres)('PostgreSQL drops the API process\'s connections', () => {
  const schema = `veil_ops_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const applicationName = `veil-ops-${randomUUID().slice(0, 8)}`;
  let api: ApiProcess;
  let sql: pg.Client;

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const terminateApiConnections = async () =>
    (
      await sql.query('SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1', [applicationName])
    ).rowCount ?? 0;

  beforeAll(async () => {
    await (await openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema })).close();
    const url = new URL(urlWithSchema(TEST_DATABASE_URL, schema));
    url.searchParams.set('application_name', applicationName);
    api = await startApiProcess({ DATABASE_URL: url.toString(), FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, LOG_LEVEL: 'info' });
    sql = new pg.Client({ connectionString: urlWithSchema(TEST_DATABASE_URL, schema) });
    await sql.connect();
  });

  afterAll(async () => {
    await api?.stop();
    await sql?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`).catch(() => undefined);
    await sql?.end();
  });

  test('the process keeps serving; the request that lost its connection answers 503 JSON, the next succeeds', async () => {
    const sessionToken = await signIn(post);
    // Several connections in the pool, idle: the ones a restart ends without any request noticing.
    await Promise.all(Array.from({ length: 6 }, () => fetch(`${api.url}/api/health`)));

    // A verify held inside PostgreSQL (its table locked), then every connection of the API terminated.
    await sql.query('BEGIN; LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE');
    const held = post('/api/auth/verify', { sessionToken });
    await expect.poll(async () => (await sql.query("SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [applicationName])).rowCount).toBe(1);
    expect(await terminateApiConnections()).toBeGreaterThan(1);
    expect(await held).toEqual({ status: 503, body: UNAVAILABLE });
    await sql.query('ROLLBACK');

    await untilServed(() => post('/api/auth/verify', { sessionToken }));
    expect(await fetch(`${api.url}/api/live`).then((response) => response.status)).toBe(200);
    // And once more with every connection idle: the pool hears each one end, and replaces it.
    await Promise.all(Array.from({ length: 6 }, () => fetch(`${api.url}/api/health`)));
    expect(await terminateApiConnections()).toBeGreaterThan(1);
    await untilServed(() => post('/api/auth/verify', { sessionToken }));
    expect(api.logs.join('')).toContain('database connection lost while idle');
    expect(await Promise.race([api.exited.then(() => 'exited'), Promise.resolve('running')])).toBe('running');
  }, onThisMachine(60_000));
});

describe.skipIf(noPostgres)('PostgreSQL stalls (a proxy that stops delivering)', () => {
  const schema = `veil_ops_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let proxy: FreezableProxy;
  // Built here, not by createTestApi: its database goes through the proxy (the app starts its own queue).
  let api: Omit<TestApi, 'jobs'>;

  beforeAll(async () => {
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startFreezableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.host = `127.0.0.1:${proxy.port}`;
    const database = await openDatabase({ kind: 'postgres', url: target.toString(), schema });
    const config = loadConfig({ STATIC_DIR: '/nonexistent', LOG_LEVEL: 'silent', MAIL: 'off', FIREBASE_AUTH_EMULATOR_HOST: emulatorHost });
    const app = await buildApp({ config, database, verifier: createFirebaseVerifier(config.firebaseProjectId, emulatorHost), logger: false });
    await app.ready();
    api = {
      app,
      database,
      config,
      reset: async () => undefined,
      close: async () => {
        proxy.thaw();
        await app.close();
        await database.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`).catch(() => undefined);
        await database.close();
      },
    };
  });

  afterAll(async () => {
    await api?.close();
    await proxy?.close();
  });

  test('health, readiness and verify answer 503 within seconds, and recover when it does', async () => {
    const sessionToken = await signIn((path, body) => call(api.app, 'POST', path, body));
    expect(await call(api.app, 'GET', '/api/ready')).toMatchObject({ status: 200, body: { ok: true, database: true, redis: null, jobs: true } });

    proxy.freeze();
    const [health, ready, verify] = await Promise.all([
      call(api.app, 'GET', '/api/health'),
      call(api.app, 'GET', '/api/ready'),
      call(api.app, 'POST', '/api/auth/verify', { sessionToken }),
    ]);
    expect(health).toMatchObject({ status: 503, body: { ok: false, database: false } });
    expect(ready).toMatchObject({ status: 503, body: { ok: false, database: false, redis: null, jobs: false } });
    expect(verify).toMatchObject({ status: 503, body: UNAVAILABLE });
    expect(verify.headers['retry-after']).toBe('5');
    expect((await call(api.app, 'GET', '/api/live')).status).toBe(200);

    proxy.thaw();
    await expect.poll(async () => (await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).status, { timeout: 15_000 }).toBe(200);
    expect((await call(api.app, 'GET', '/api/health')).status).toBe(200);
  }, onThisMachine(60_000));
});

describe('Redis that never answers, or cannot be reached', () => {
  const apis: TestApi[] = [];
  afterAll(async () => {
    for (const api of apis) await api.close();
  });

  async function startWithRedis(redisUrl: string) {
    const api = await createTestApi({ driver: 'pglite', emulatorHost, env: { REDIS_URL: redisUrl, RATE_LIMIT_SIGN_IN: '2' } });
    apis.push(api);
    return api;
  }

  /** Sign-in calls from one address: the third is over the limit of 2, counted in memory. */
  async function expectLimitsInMemory(api: TestApi) {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await api.app.inject({ method: 'POST', url: '/api/auth/google/signin', remoteAddress: '203.0.113.9', payload: { idToken: 'not-a-token' } });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([401, 401, 429]);
  }

  test('a Redis that accepts connections and never answers: the API starts, /live answers, calls are limited in memory', async () => {
    const silent = await startSilentServer();
    try {
      const api = await startWithRedis(`redis://127.0.0.1:${silent.port}`);
      expect(await call(api.app, 'GET', '/api/live')).toMatchObject({ status: 200, body: { ok: true } });
      await expectLimitsInMemory(api);
      expect(await call(api.app, 'GET', '/api/ready')).toMatchObject({ status: 503, body: { ok: false, database: true, redis: false, jobs: true } });
    } finally {
      await silent.close();
    }
  }, onThisMachine(30_000));

  test('the API process started against a hung Redis says so once, not once per call', async () => {
    const silent = await startSilentServer();
    const dataDir = migratedDataDir('veil-ops-');
    const api = await startApiProcess({ REDIS_URL: `redis://127.0.0.1:${silent.port}`, LOG_LEVEL: 'info', DATA_DIR: dataDir });
    try {
      for (let call = 0; call < 5; call += 1) expect((await fetch(`${api.url}/api/live`)).status).toBe(200);
      const said = api.logs.join('').split('\n').filter((line) => line.includes('Redis unavailable'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain("rate limits are counted in this process's memory until it answers");
    } finally {
      await api.stop();
      await silent.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, TIMEOUT_WITH_API_PROCESS_START);

  test('Redis unreachable at start: the API starts and serves, limits counted in memory', async () => {
    const api = await startWithRedis(`redis://127.0.0.1:${await closedPort()}`);
    await expectLimitsInMemory(api);
    expect((await call(api.app, 'GET', '/api/live')).status).toBe(200);
    expect(await call(api.app, 'GET', '/api/ready')).toMatchObject({ status: 503, body: { redis: false } });
  }, onThisMachine(30_000));
});

describe.skipIf(noRedis)('Redis stalls and recovers on the same connection (issue 34)', () => {
  let proxy: FreezableProxy;
  let api: TestApi;
  beforeAll(async () => {
    proxy = await startFreezableProxy({ host: REDIS.hostname, port: Number(REDIS.port || 6379) });
    api = await createTestApi({
      driver: 'pglite',
      emulatorHost,
      env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_KEY_PREFIX: `veil-test-${randomUUID()}:` },
    });
  });
  afterAll(async () => {
    await api?.close();
    await proxy?.close();
  });

  test('/api/ready says Redis is down while it stalls and up again once it answers, without a restart', async () => {
    expect(await call(api.app, 'GET', '/api/ready')).toMatchObject({ status: 200, body: { ok: true, redis: true } });
    proxy.freeze();
    // A call counts in Redis, which does not answer within the command timeout: counted in memory instead.
    expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken: 'x'.repeat(43) })).status).toBe(401);
    expect(await call(api.app, 'GET', '/api/ready')).toMatchObject({ status: 503, body: { ok: false, redis: false } });
    proxy.thaw();
    // The connection never closed, so ioredis sends no new 'ready': the probe itself must ask again.
    await expect.poll(async () => (await call(api.app, 'GET', '/api/ready')).body.redis, { timeout: 15_000, interval: 500 }).toBe(true);
    expect(await call(api.app, 'GET', '/api/ready')).toMatchObject({ status: 200, body: { ok: true } });
  }, onThisMachine(60_000));
});

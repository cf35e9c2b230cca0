/**
 * Two API processes on one PostgreSQL and one Redis, as behind a load balancer: what one instance does,
 * the other knows (sign-out, rate-limit counts, payment events), and a shutdown lets the requests in flight
 * finish. Skipped, with the reason, when PostgreSQL or Redis does not answer.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { signPayload } from '../../server/payments/signature';
import { startApiProcess, sharedServicesMissing, urlWithSchema, type ApiProcess } from '../support/api-process';
import { mintProviderUser } from '../support/auth-emulator';
import { TEST_DATABASE_URL } from '../support/server-harness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WEBHOOK_SECRET = 'whsec_two_instances_test';
const SIGN_IN_LIMIT = 4;
const emulatorHost = inject('authEmulatorHost');

const missing = await sharedServicesMissing(TEST_DATABASE_URL, REDIS_URL);
if (missing) console.log(`[two-instances] skipped: ${missing}`);

async function post(base: string, path: string, body: unknown, clientAddress: string) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    // The instances trust loopback as their proxy, so each test speaks as a client address of its own.
    headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.skipIf(missing !== null)('two API instances on one PostgreSQL and one Redis', () => {
  const schema = `veil_two_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let a: ApiProcess;
  let b: ApiProcess;
  let sql: pg.Client;

  beforeAll(async () => {
    // Migrated once here; each instance then finds its migrations applied.
    await (await openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema })).close();
    const env = {
      DATABASE_URL: urlWithSchema(TEST_DATABASE_URL, schema),
      REDIS_URL,
      REDIS_KEY_PREFIX: `veil-test-${schema}:`,
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_SIGN_IN: String(SIGN_IN_LIMIT),
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
      LOCAL_WEBHOOK_SECRET: WEBHOOK_SECRET,
    };
    [a, b] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    sql = new pg.Client({ connectionString: urlWithSchema(TEST_DATABASE_URL, schema) });
    await sql.connect();
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sql?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await sql?.end();
  });

  let addressSequence = 0;
  const newAddress = () => `192.0.2.${(addressSequence += 1)}`;

  async function signIn(on: ApiProcess, label: string) {
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email: `${label}.${randomUUID()}@example.com` });
    const answer = await post(on.url, '/api/auth/google/signin', { idToken: minted.idToken }, newAddress());
    expect(answer.status).toBe(200);
    return { sessionToken: answer.body.sessionToken as string, userId: (answer.body.user as { id: string }).id };
  }

  test('a session signed out on one instance is refused by the other', async () => {
    const { sessionToken } = await signIn(a, 'signout');
    expect((await post(b.url, '/api/auth/verify', { sessionToken }, newAddress())).status).toBe(200);
    expect((await post(a.url, '/api/auth/signout', { sessionToken }, newAddress())).status).toBe(200);
    expect(await post(b.url, '/api/auth/verify', { sessionToken }, newAddress())).toEqual({
      status: 401,
      body: { success: false, error: 'Your session has expired. Please sign in again.', code: 'session_invalid' },
    });
  });

  test('the sign-in limit counts the attempts made on both instances together', async () => {
    const client = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_LIMIT; i += 1) {
      statuses.push((await post(i % 2 === 0 ? a.url : b.url, '/api/auth/google/signin', { idToken: 'not-a-token' }, client)).status);
    }
    // Counted per process, each instance would have allowed SIGN_IN_LIMIT attempts of its own.
    expect(statuses).toEqual([...Array(SIGN_IN_LIMIT).fill(401), 429]);
  });

  test('the same payment event delivered to both instances at once, many times, is applied exactly once', async () => {
    const { sessionToken, userId } = await signIn(b, 'webhook');
    const created = Math.floor(Date.now() / 1000);
    const events = ['active', 'past_due', 'active'].map((status, i) => ({
      id: `evt_two_${randomUUID()}`,
      type: 'customer.subscription.updated',
      created: created + i,
      data: {
        object: {
          id: `sub_two_${userId}`,
          status,
          cancel_at_period_end: i === 2,
          current_period_end: created + 365 * 86_400,
          metadata: { userId },
        },
      },
    }));
    for (const event of events) {
      const raw = JSON.stringify(event);
      const deliveries = Array.from({ length: 8 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b).url}/api/webhooks/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, WEBHOOK_SECRET) },
          body: raw,
        }).then(async (response) => ({ status: response.status, outcome: ((await response.json()) as { outcome: string }).outcome })),
      );
      const answers = await Promise.all(deliveries);
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      expect(answers.filter((answer) => answer.outcome === 'applied')).toHaveLength(1);
      expect(answers.filter((answer) => answer.outcome === 'duplicate')).toHaveLength(7);
      const ledger = await sql.query('SELECT count(*)::int AS n FROM payment_events WHERE id = $1', [event.id]);
      expect(ledger.rows[0].n).toBe(1);
    }
    // The last event's state, read through either instance.
    for (const instance of [a, b]) {
      expect((await post(instance.url, '/api/auth/verify', { sessionToken }, newAddress())).body.subscription).toMatchObject({
        status: 'active',
        cancelAtPeriodEnd: true,
      });
    }
  });

  /** One subscription event, signed as the local provider signs it, delivered to `on`. */
  async function deliverEvent(on: ApiProcess, type: string, created: number, object: Record<string, unknown>) {
    const raw = JSON.stringify({ id: `evt_race_${randomUUID()}`, type, created, data: { object } });
    const response = await fetch(`${on.url}/api/webhooks/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, WEBHOOK_SECRET) },
      body: raw,
    });
    expect(response.status).toBe(200);
  }

  /** An account made straight in the database: these rounds are about payment events, not sign-in. */
  async function newAccount() {
    const userId = `usr_race_${randomUUID()}`;
    await sql.query('INSERT INTO users (id, identity_subject, provider, email) VALUES ($1, $2, $3, $4)', [userId, userId, 'google', `${userId}@example.com`]);
    return userId;
  }
  const storedState = async (subscriptionId: string) =>
    (await sql.query('SELECT status, cancel_at_period_end FROM subscriptions WHERE provider_subscription_id = $1', [subscriptionId])).rows[0];

  const rounds = 20;
  type RacingEvent = { type: string; status: string; cancelAtPeriodEnd: boolean };

  /**
   * One round of a race: a fresh subscription (stored first on even rounds, so half the rounds race on a
   * stored row and half on the very first insert), then a newer and an older event for it at the same
   * moment, one to each instance (which one gets which alternates). Returns the state that was kept.
   */
  async function race(round: number, newer: RacingEvent, older: RacingEvent) {
    const userId = await newAccount();
    const subscriptionId = `sub_race_${round}_${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const object = (status: string, cancelAtPeriodEnd: boolean) => ({
      id: subscriptionId,
      status,
      cancel_at_period_end: cancelAtPeriodEnd,
      current_period_end: created + 365 * 86_400,
      metadata: { userId },
    });
    if (round % 2 === 0) await deliverEvent(round % 4 === 0 ? a : b, 'customer.subscription.created', created, object('active', false));
    const [first, second] = round % 4 < 2 ? [a, b] : [b, a];
    await Promise.all([
      deliverEvent(first, newer.type, created + 2, object(newer.status, newer.cancelAtPeriodEnd)),
      deliverEvent(second, older.type, created + 1, object(older.status, older.cancelAtPeriodEnd)),
    ]);
    return { round, ...(await storedState(subscriptionId)) };
  }

  test('a deletion and an older "updated: active" for one subscription, one to each instance at once: always cancelled', async () => {
    for (let round = 0; round < rounds; round += 1) {
      const kept = await race(
        round,
        { type: 'customer.subscription.deleted', status: 'canceled', cancelAtPeriodEnd: false },
        { type: 'customer.subscription.updated', status: 'active', cancelAtPeriodEnd: true },
      );
      expect(kept).toEqual({ round, status: 'cancelled', cancel_at_period_end: false });
    }
  });

  test('two updates of one subscription, one to each instance at once: the newer state always stays', async () => {
    for (let round = 0; round < rounds; round += 1) {
      // Renewal turned off (newer) against a payment that failed earlier (older): the newer state stays.
      const kept = await race(
        round,
        { type: 'customer.subscription.updated', status: 'active', cancelAtPeriodEnd: true },
        { type: 'customer.subscription.updated', status: 'past_due', cancelAtPeriodEnd: false },
      );
      expect(kept).toEqual({ round, status: 'active', cancel_at_period_end: true });
    }
  });

  test('a graceful shutdown finishes the request in flight, then exits', async () => {
    const { sessionToken } = await signIn(a, 'shutdown');
    const body = JSON.stringify({ sessionToken });
    const port = Number(new URL(a.url).port);
    // A request whose headers and half its body have arrived when SIGTERM does.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/auth/verify', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-forwarded-for': newAddress() } },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += String(chunk)));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      request.on('error', reject);
      request.write(body.slice(0, 10));
      setTimeout(() => {
        a.signal('SIGTERM');
        // The instance is closing: it takes no new connection, but this request still gets its answer.
        setTimeout(() => request.end(body.slice(10)), 500);
      }, 300);
    });
    const result = await answer;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ success: true });
    expect(await a.exited).toBe(0);
    await expect(fetch(`${a.url}/api/live`)).rejects.toThrow();
    // The other instance carries on.
    expect((await post(b.url, '/api/auth/verify', { sessionToken }, newAddress())).status).toBe(200);
  });
});

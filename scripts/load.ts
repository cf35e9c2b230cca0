/**
 * `npm run load`: a fixed amount of mixed traffic against two API instances on one PostgreSQL (and one
 * Redis when it answers), loopback only, then a consistency check. Each account signs in, verifies
 * on both instances, creates a checkout, receives its payment events (each delivered to both instances
 * at once, twice over, some accounts' in reverse order), verifies its subscription, and signs out.
 * It then checks: no unexpected answer, and every account's stored state is what its newest event says,
 * with each event in the ledger exactly once. Prints p50/p99 per call; exits 1 on any error.
 *
 *   LOAD_ACCOUNTS (40), LOAD_CONCURRENCY (8 accounts at a time), LOAD_TIMEOUT (180 s),
 *   LOAD_AUTH_EMULATOR_PORT (9299; uses it and the next two), TEST_DATABASE_URL, TEST_REDIS_URL
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../server/db/database.ts';
import { signPayload } from '../server/payments/signature.ts';
import { sharedServicesMissing, startApiProcess, urlWithSchema, type ApiProcess } from '../tests/support/api-process.ts';
import { mintProviderUser, startAuthEmulator } from '../tests/support/auth-emulator.ts';

const ACCOUNTS = Number(process.env.LOAD_ACCOUNTS ?? 40);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY ?? 8);
const TIMEOUT_SECONDS = Number(process.env.LOAD_TIMEOUT ?? 180);
const EMULATOR_PORT = Number(process.env.LOAD_AUTH_EMULATOR_PORT ?? 9299);
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WEBHOOK_SECRET = 'whsec_load_test';
const VERIFIES_PER_ACCOUNT = 10;

type CallKind = 'sign-in' | 'verify' | 'checkout' | 'webhook' | 'sign-out';
const latencies = new Map<CallKind, number[]>();
const errors: string[] = [];

/** One call, timed; an answer other than `expected` is an error. */
async function call(kind: CallKind, url: string, init: RequestInit, expected: number): Promise<Record<string, unknown>> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status !== expected) errors.push(`${kind} ${url}: ${response.status} ${JSON.stringify(body)} (expected ${expected})`);
    return body;
  } catch (error) {
    errors.push(`${kind} ${url}: ${(error as Error).message}`);
    return {};
  } finally {
    const list = latencies.get(kind) ?? [];
    list.push(performance.now() - started);
    latencies.set(kind, list);
  }
}

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Expected {
  userId: string;
  status: 'active' | 'cancelled' | 'past_due';
  cancelAtPeriodEnd: boolean;
  eventIds: string[];
}

/** One account's life, spread over both instances. */
async function account(index: number, instances: [ApiProcess, ApiProcess], emulatorUrl: string): Promise<Expected> {
  const on = (i: number) => instances[(index + i) % 2]!.url;
  const minted = await mintProviderUser(emulatorUrl, { email: `load.${index}.${randomUUID()}@example.com` });
  const signedIn = await call('sign-in', `${on(0)}/api/auth/google/signin`, json({ idToken: minted.idToken }), 200);
  const sessionToken = signedIn.sessionToken as string;
  const userId = (signedIn.user as { id: string }).id;

  for (let i = 0; i < VERIFIES_PER_ACCOUNT; i += 1) await call('verify', `${on(i)}/api/auth/verify`, json({ sessionToken }), 200);
  await call('checkout', `${on(1)}/api/subscription/create-checkout`, json({ idToken: minted.idToken, email: minted.email }), 200);

  // What the provider would send: paid, then (for some accounts) auto-renewal turned off or the end.
  const created = Math.floor(Date.now() / 1000);
  const customer = `cus_load_${index}`;
  const subscription = `sub_load_${index}_${randomUUID().slice(0, 8)}`;
  const ending = index % 3; // 0: stays active, 1: auto-renewal off, 2: cancelled
  const states = [
    { type: 'customer.subscription.created', status: 'active', cancel: false },
    ...(ending >= 1 ? [{ type: 'customer.subscription.updated', status: 'active', cancel: true }] : []),
    ...(ending === 2 ? [{ type: 'customer.subscription.deleted', status: 'canceled', cancel: true }] : []),
  ];
  const events = [
    {
      id: `evt_load_${randomUUID()}`,
      type: 'checkout.session.completed',
      created,
      data: { object: { id: `cs_load_${index}`, client_reference_id: userId, customer, subscription } },
    },
    ...states.map((state, i) => ({
      id: `evt_load_${randomUUID()}`,
      type: state.type,
      created: created + i + 1,
      data: {
        object: {
          id: subscription,
          customer,
          status: state.status,
          cancel_at_period_end: state.cancel,
          current_period_end: created + 365 * 86_400,
          metadata: { userId },
        },
      },
    })),
  ];
  // Every fourth account gets its subscription events newest first: the older ones must change nothing.
  const order = index % 4 === 0 ? [events[0]!, ...events.slice(1).reverse()] : events;
  for (const event of order) {
    const raw = JSON.stringify(event);
    const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, WEBHOOK_SECRET) }, body: raw };
    await Promise.all([0, 1, 0, 1].map((i) => call('webhook', `${on(i)}/api/webhooks/payments`, init, 200)));
  }

  const last = states[states.length - 1]!;
  const expected: Expected = {
    userId,
    status: last.status === 'canceled' ? 'cancelled' : 'active',
    cancelAtPeriodEnd: last.cancel,
    eventIds: events.map((event) => event.id),
  };
  const verified = await call('verify', `${on(1)}/api/auth/verify`, json({ sessionToken }), 200);
  const seen = verified.subscription as { status?: string; cancelAtPeriodEnd?: boolean } | null;
  if (seen?.status !== expected.status || seen?.cancelAtPeriodEnd !== expected.cancelAtPeriodEnd) {
    errors.push(`account ${index}: verify answered ${JSON.stringify(seen)}, its events say ${expected.status}/${expected.cancelAtPeriodEnd}`);
  }
  await call('sign-out', `${on(0)}/api/auth/signout`, json({ sessionToken }), 200);
  // Signed out on one instance, refused by the other.
  await call('verify', `${on(1)}/api/auth/verify`, json({ sessionToken }), 401);
  return expected;
}

async function consistency(sql: pg.Client, expectations: Expected[]): Promise<string[]> {
  const problems: string[] = [];
  for (const expected of expectations) {
    const { rows } = await sql.query('SELECT status, cancel_at_period_end FROM subscriptions WHERE user_id = $1', [expected.userId]);
    const row = rows[0] as { status: string; cancel_at_period_end: boolean } | undefined;
    if (row?.status !== expected.status || row.cancel_at_period_end !== expected.cancelAtPeriodEnd) {
      problems.push(`${expected.userId}: stored ${JSON.stringify(row)}, events say ${expected.status}/${expected.cancelAtPeriodEnd}`);
    }
    const ledger = await sql.query('SELECT id FROM payment_events WHERE id = ANY($1)', [expected.eventIds]);
    if (ledger.rowCount !== expected.eventIds.length) problems.push(`${expected.userId}: ${ledger.rowCount} of ${expected.eventIds.length} events in the ledger`);
    const live = await sql.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [expected.userId]);
    if (live.rows[0].n !== 0) problems.push(`${expected.userId}: ${live.rows[0].n} sessions still live after sign-out`);
  }
  return problems;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function main(): Promise<number> {
  const missing = await sharedServicesMissing(DATABASE_URL, REDIS_URL);
  const withRedis = missing === null;
  if (missing?.startsWith('no PostgreSQL')) {
    console.error(`npm run load needs PostgreSQL: ${missing}`);
    return 1;
  }
  if (!withRedis) console.log(`${missing}: rate-limit counters per instance`);

  const schema = `veil_load_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await (await openDatabase({ kind: 'postgres', url: DATABASE_URL, schema })).close();
  const emulator = await startAuthEmulator(EMULATOR_PORT);
  const env = {
    DATABASE_URL: urlWithSchema(DATABASE_URL, schema),
    ...(withRedis ? { REDIS_URL, REDIS_KEY_PREFIX: `veil-load-${schema}:` } : {}),
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    LOCAL_WEBHOOK_SECRET: WEBHOOK_SECRET,
    // Every call still passes through its limits; a load test from one address must not meet them.
    RATE_LIMIT_SIGN_IN: '1000000',
    RATE_LIMIT_SCALE: '100000',
  };
  const instances: ApiProcess[] = [];
  const sql = new pg.Client({ connectionString: urlWithSchema(DATABASE_URL, schema) });
  const deadline = setTimeout(() => {
    console.error(`load test exceeded ${TIMEOUT_SECONDS} s: stopping`);
    process.exit(1);
  }, TIMEOUT_SECONDS * 1000);
  try {
    instances.push(...(await Promise.all([startApiProcess(env), startApiProcess(env)])));
    await sql.connect();
    const started = performance.now();
    const expectations: Expected[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ACCOUNTS) {
          const index = next++;
          expectations.push(await account(index, instances as [ApiProcess, ApiProcess], emulator.url));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const problems = await consistency(sql, expectations);

    const all = [...latencies.values()].flat();
    console.log(
      `\n${ACCOUNTS} accounts, ${CONCURRENCY} at a time, two instances on PostgreSQL${withRedis ? ' and Redis' : ''}: ` +
        `${all.length} requests in ${seconds.toFixed(1)} s\n`,
    );
    console.log('call        requests   p50 ms   p99 ms');
    for (const [kind, values] of [...latencies, ['all', all] as const]) {
      console.log(`${kind.padEnd(10)} ${String(values.length).padStart(9)} ${percentile(values, 50).toFixed(1).padStart(8)} ${percentile(values, 99).toFixed(1).padStart(8)}`);
    }
    console.log(`\nerrors: ${errors.length}`);
    for (const error of errors.slice(0, 20)) console.log(`  ${error}`);
    console.log(`consistency: ${problems.length === 0 ? `every account's state is what its events say, each event recorded once` : `${problems.length} problems`}`);
    for (const problem of problems.slice(0, 20)) console.log(`  ${problem}`);
    return errors.length === 0 && problems.length === 0 ? 0 : 1;
  } finally {
    clearTimeout(deadline);
    await Promise.all(instances.map((instance) => instance.stop()));
    await sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await sql.end().catch(() => undefined);
    await emulator.stop();
  }
}

process.exit(await main());

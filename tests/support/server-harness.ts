/**
 * The API under test: `buildApp` on a real database (in-memory PGlite, or a throw-away schema of the
 * local PostgreSQL when one answers) with the real Firebase verifier pointed at the test Auth emulator.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { getTableName } from 'drizzle-orm';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/database';
import { createFirebaseVerifier, type IdentityVerifier } from '../../server/identity/verifier';
import type { MailCounters } from '../../server/mail/mail-worker';
import { startJobQueue, type JobQueue, type RetryPolicy } from '../../server/jobs/queue';
import type { PaymentProvider } from '../../server/domain/billing/payment-provider';
import type { IdentityAdmin } from '../../server/domain/accounts/identity-admin';
import type { Tracing } from '../../server/observability/tracing';
import { LOCAL_WEBHOOK_SECRET } from './payments';
import { onThisMachine } from './machine-slowness';
import { takeDatabase } from './pglite-pool';
import { declaredTables } from './schema-tables';
import { until } from './until';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let postgresAnswer: Promise<boolean> | null = null;

/** Whether the test PostgreSQL answers; asked once per process, with a short timeout. */
export function postgresAvailable(): Promise<boolean> {
  postgresAnswer ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 1500 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      console.log(`[server tests] no PostgreSQL at ${TEST_DATABASE_URL}: PostgreSQL runs skipped, PGlite only`);
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return postgresAnswer;
}

export type Driver = 'pglite' | 'postgres';

/** Instead of Firebase: trusts any ID token as the identity it names (`ada` is ada, ada@example.com). */
export const nameVerifier: IdentityVerifier = {
  // Signed in just now: a call that wants a recent sign-in takes it.
  verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: token, authTime: Math.floor(Date.now() / 1000) }),
};

export interface TestApi {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The app's job queue (tests owe messages through it directly). */
  jobs: JobQueue;
  /** Waits for the jobs the last test left running or due, then empties every table, keeping the schema. */
  reset: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Every table of the app the reset empties: read from the schema, so a table added later is emptied too (a
 * list kept by hand had missed notice_addresses, which no foreign key reaches, so its rows outlived the test
 * that wrote them). peer_log keeps its one row and is reset apart (below).
 */
const TABLES = declaredTables.map((table) => getTableName(table)).filter((name) => name !== 'peer_log');

/** A migrated database of its own and how to close it (on PostgreSQL, dropping its schemas unless shared). */
export interface TestDatabase {
  database: Database;
  /** The PostgreSQL schema it lives in (PGlite: a name nothing uses). */
  schema: string;
  close: () => Promise<void>;
}

let dumpRead: Blob | undefined;

/**
 * The migrated database the server project's global set-up dumped (tests/server/global-setup.ts), read once
 * per worker; undefined elsewhere, where each PGlite database is made and migrated from nothing.
 * openDatabase still runs the migrations on it, finding them applied.
 */
export function migratedPgliteDump(): Blob | undefined {
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  dumpRead ??= new Blob([readFileSync(file)]);
  return dumpRead;
}

/**
 * A new PGlite data folder (under the system's temporary folder, named from `prefix`) holding the server
 * project's migrated database (tests/server/global-setup.ts): an API, a script or a spawned process opened on
 * it starts as on an existing database, without PGlite's initdb and every migration (6 to 10 s of CPU each
 * here). What a new data folder goes through is tested where it is the subject: tests/server/schema-migrations,
 * production-build and the e2e local-start.
 */
export function migratedDataDir(prefix: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(inject('pgliteTemplateDir'), dataDir, { recursive: true });
  return dataDir;
}

/**
 * A freshly migrated database on `driver`: PGlite (in memory, or in `dataDir`), or a new schema of the test
 * PostgreSQL. `sharedSchema` opens another pool on a schema someone else owns (and leaves it to them).
 */
export async function openTestDatabase(
  driver: Driver,
  { sharedSchema, dataDir = null }: { sharedSchema?: string; dataDir?: string | null } = {},
): Promise<TestDatabase> {
  const schema = sharedSchema ?? `veil_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const startFrom = driver === 'pglite' && !dataDir ? migratedPgliteDump() : undefined;
  if (startFrom) {
    // In memory from the migrated dump: one a closed API gave back, as new (tests/support/pglite-pool.ts).
    const { database, release } = await takeDatabase(() => openDatabase({ kind: 'pglite', dataDir: null, startFrom }));
    return { database, schema, close: async () => void (await release()) };
  }
  const database = await openDatabase(driver === 'pglite' ? { kind: 'pglite', dataDir } : { kind: 'postgres', url: TEST_DATABASE_URL, schema });
  return {
    database,
    schema,
    close: async () => {
      if (driver === 'postgres' && !sharedSchema) {
        await database.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${database.jobSchema}" CASCADE`).catch(() => undefined);
      }
      await database.close();
    },
  };
}

export async function createTestApi({
  driver,
  emulatorHost,
  env = {},
  verifier,
  identityAdmin,
  payments,
  dataDir = null,
  logger = false,
  logDestination,
  tracing,
  mail,
  sharedSchema,
  statusNow,
}: {
  driver: Driver;
  emulatorHost?: string;
  env?: Record<string, string>;
  verifier?: IdentityVerifier;
  /** Instead of firebase-admin's (a test making the identity provider fail). */
  identityAdmin?: IdentityAdmin;
  payments?: PaymentProvider;
  dataDir?: string | null;
  logger?: boolean;
  /** Where the log lines go (with `logger`): a test reads them. */
  logDestination?: { write: (line: string) => void };
  /** What startTracing returns (server/observability/tracing.ts): its plugin and the log lines' trace ids. */
  tracing?: Pick<Tracing, 'plugin' | 'logMixin'>;
  /** Mail counters and retries; mail is sent only when `env` sets SMTP_URL (tests/support/maildev.ts). */
  mail?: { counters?: MailCounters; retry?: Partial<RetryPolicy> };
  /** PostgreSQL: a second instance on another API's schema (its own pool); the schema is left to its owner. */
  sharedSchema?: string;
  /** The servers' status's clock (server/app.ts): a test moves it on to see a server fall silent. */
  statusNow?: () => Date;
}): Promise<TestApi & { schema: string }> {
  const { database, schema, close: closeDatabase } = await openTestDatabase(driver, { sharedSchema, dataDir });
  const config = loadConfig({
    // As vitest runs: the development-only calls (/api/dev) exist.
    NODE_ENV: 'test',
    STATIC_DIR: '/nonexistent-static-dir',
    PUBLIC_URL: 'http://veil.test',
    LOG_LEVEL: 'warn',
    // Tests deliver local-checkout events themselves; without it the API signs with a random secret.
    LOCAL_WEBHOOK_SECRET,
    // No mail server unless the test starts one: owed e-mails are then completed unsent.
    ...(env.SMTP_URL ? {} : { MAIL: 'off' }),
    ...(emulatorHost ? { FIREBASE_AUTH_EMULATOR_HOST: emulatorHost } : {}),
    ...env,
  });
  const jobs = await startJobQueue(database, { pollSeconds: 0.5 });
  const app = await buildApp({
    config,
    database,
    jobs,
    verifier: verifier ?? createFirebaseVerifier(config.firebaseProjectId, emulatorHost),
    payments,
    ...(identityAdmin ? { identityAdmin } : {}),
    logger,
    ...(logDestination ? { logDestination } : {}),
    ...(tracing ? { tracing } : {}),
    ...(mail ? { mail } : {}),
    ...(statusNow ? { statusNow } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    config,
    jobs,
    schema,
    // peer_log keeps its one row: the list's version starts again at 0. The audit trail refuses TRUNCATE
    // (migration 0017): the tests, as its owner, lift that trigger for the reset alone.
    reset: async () => {
      await jobsSettled(database);
      await database.exec(
        `ALTER TABLE staff_actions DISABLE TRIGGER staff_actions_no_truncate; TRUNCATE ${TABLES.join(', ')} CASCADE; ` +
          `ALTER TABLE staff_actions ENABLE TRIGGER staff_actions_no_truncate; UPDATE peer_log SET version = 0, floor = 0`,
      );
    },
    close: async () => {
      await app.close();
      await jobs.stop();
      await closeDatabase();
    },
  };
}

/**
 * Waits (a bounded time) until no job is running or due: a job the last test owed at its end (a refund
 * it asked for) runs at once, woken by its commit, and would otherwise act in the next test's time, on
 * its stand-ins, or find the tables emptied under it. A retry due later is left to find them empty.
 */
async function jobsSettled(database: Database): Promise<void> {
  const busy = database.statement(
    'veil_test_jobs_busy',
    `SELECT count(*)::int FROM "${database.jobSchema}".job WHERE state = 'active' OR (state IN ('created', 'retry') AND start_after <= now())`,
  );
  // Past the bound the reset goes on, as it did before jobs ran at once.
  await until(async () => Number((await busy([]))[0]?.[0]) === 0, onThisMachine(10_000)).catch(() => undefined);
}

/** POSTs JSON through `inject` and returns status and parsed body. */
export async function call(app: FastifyInstance, method: 'POST' | 'DELETE' | 'GET', url: string, payload?: unknown) {
  const response = await app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  let body: Record<string, unknown> = {};
  try {
    body = response.json();
  } catch {
    body = { raw: response.body };
  }
  return { status: response.statusCode, body, headers: response.headers };
}

/**
 * Pays a year through the local checkout as the customer `idToken` names (nameVerifier: a name; the Auth
 * emulator: a minted token): the checkout page's Pay, whose event makes the subscription `active`. A WireGuard
 * key needs it first (issue 46, item 9: no subscription, no tunnel address).
 */
export async function subscribe(app: FastifyInstance, idToken: string, email = `${idToken}@example.com`): Promise<void> {
  const checkout = await call(app, 'POST', '/api/subscription/create-checkout', { idToken, email });
  if (checkout.status !== 200) throw new Error(`create-checkout answered ${checkout.status}: ${JSON.stringify(checkout.body)}`);
  const paid = await app.inject({ method: 'POST', url: `${new URL(checkout.body.url as string).pathname}/pay` });
  if (paid.headers.location !== '/success') throw new Error(`the local checkout's Pay answered ${paid.statusCode} to ${String(paid.headers.location)}`);
}

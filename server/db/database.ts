/**
 * Opens the database: PGlite in a data folder (the embedded default) or PostgreSQL when a URL is given,
 * runs the SQL migrations, and returns one drizzle handle whatever the driver.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { fromPglite, type Db as JobStore } from 'pg-boss';
import { schema } from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Runs raw SQL (several statements allowed, no parameters). */
  exec: (sql: string) => Promise<void>;
  /**
   * One statement for a hot path, run without the ORM: its rows as arrays of column values, in the
   * order the SQL selects them. On PostgreSQL it is prepared once per connection under `name`.
   */
  statement: (name: string, text: string) => (values: unknown[]) => Promise<unknown[][]>;
  ping: () => Promise<boolean>;
  /** The same database for the job queue (pg-boss), and the schema its tables live in. */
  jobStore: JobStore;
  jobSchema: string;
  /**
   * Hears a connection the database dropped while it sat idle in the pool (a restart, a failover,
   * pg_terminate_backend). The pool replaces it by itself; without a listener the process would exit.
   */
  onConnectionError: (listener: (error: Error) => void) => void;
  /**
   * Hears NOTIFY on `channel` (sent at commit, by any process on the database): PGlite's own listener in
   * process; on PostgreSQL one connection of its own outside the pool, opened again after it drops (each
   * reconnection is heard as a notification too, since one may have been missed meanwhile). Answers how to stop.
   */
  listen: (channel: string, onNotify: () => void) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
}

/**
 * PostgreSQL time limits (issue 23): a stalled database answers a 503 within seconds instead of holding
 * every request for as long as its client waits.
 * - statementMs: the server cancels a statement running longer (statement_timeout);
 * - queryMs: the client gives up on a statement whose answer never arrives (a frozen network), a little
 *   later than the server would, so the server's own cancel is what normally answers;
 * - connectMs: opening a connection (pool connectionTimeoutMillis);
 * - pingMs: the readiness check's own, shorter limit.
 */
interface DatabaseTimeouts {
  statementMs: number;
  queryMs: number;
  connectMs: number;
  pingMs: number;
}

const DEFAULT_TIMEOUTS: DatabaseTimeouts = { statementMs: 5000, queryMs: 6000, connectMs: 3000, pingMs: 2000 };

/** pg's message when the client-side query_timeout fires. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * A pg client that drops its connection once a statement's answer has not arrived in time: the statement
 * may still be in flight on it, so every later statement would queue behind it. A transaction's client
 * is released without an error (drizzle), so without this it would go back to the pool still stuck.
 */
class TimedClient extends pg.Client {
  override query(...args: unknown[]): never {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) {
          (this as unknown as { connection: { stream: { destroy: () => void } } }).connection.stream.destroy();
        }
      });
    }
    return result as never;
  }
}

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

export type DatabaseTarget =
  | {
      kind: 'pglite';
      dataDir: string | null;
      /**
       * An in-memory database started from this dump of a data folder (PGlite's dumpDataDir) instead of a new
       * cluster: the tests start each API from one migrated copy, skipping PGlite's initdb (2 to 3 s each).
       */
      startFrom?: Blob;
    }
  | { kind: 'postgres'; url: string; schema?: string; timeouts?: Partial<DatabaseTimeouts> };

/**
 * `migrations`: `run` applies the pending ones (the embedded default, and `npm run db:migrate` as the owner
 * role); `check` applies none and refuses a database missing one, for an API whose role has no DDL rights
 * (MIGRATIONS=check; issue 46, item 11; docs/operations.md "Database roles").
 */
export async function openDatabase(target: DatabaseTarget, { migrations = 'run' }: { migrations?: 'run' | 'check' } = {}): Promise<Database> {
  const database =
    target.kind === 'pglite'
      ? await openPglite(target.dataDir, target.startFrom)
      : await openPostgres(target.url, target.schema, { ...DEFAULT_TIMEOUTS, ...target.timeouts }, migrations === 'run');
  try {
    if (migrations === 'run') await migrate(database);
    else await checkMigrated(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** The migration files' ids, in the order they apply. */
function migrationIds(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => file.replace(/\.sql$/, ''));
}

/** Refuses a database on which a migration has not run (the API runs none of its own with MIGRATIONS=check). */
async function checkMigrated(database: Database): Promise<void> {
  let applied: Set<string>;
  try {
    applied = new Set((await database.statement('veil_applied_migrations', 'SELECT id FROM schema_migrations')([])).map(([id]) => String(id)));
  } catch {
    applied = new Set();
  }
  const missing = migrationIds().filter((id) => !applied.has(id));
  if (missing.length > 0) {
    throw new Error(`MIGRATIONS=check: the database lacks ${missing.length} migration(s) (first: ${missing[0]}); run \`npm run db:migrate\` as the owner role first`);
  }
}

async function openPglite(dataDir: string | null, startFrom: Blob | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Loaded only for PGlite: on PostgreSQL (production) its WebAssembly build is dead weight at start-up.
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  const client = dataDir ? new PGlite(dataDir) : new PGlite(startFrom ? { loadDataDir: startFrom } : {});
  await client.waitReady;
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    driver: 'pglite',
    exec: async (sql) => {
      await client.exec(sql);
    },
    statement: (_name, text) => async (values) => (await client.query<unknown[]>(text, values, { rowMode: 'array' })).rows,
    ping: async () => (await client.query('select 1 as ok')).rows.length === 1,
    jobStore: fromPglite(client),
    jobSchema: 'pgboss',
    // In process: no connection to lose.
    onConnectionError: () => {},
    listen: async (channel, onNotify) => {
      const stop = await client.listen(channel, () => onNotify());
      return async () => {
        if (!client.closed) await stop();
      };
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, searchPath: string | undefined, timeouts: DatabaseTimeouts, createSchema = true): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    Client: TimedClient,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    connectionTimeoutMillis: timeouts.connectMs,
    // A peer that vanished without a word (a failover) is noticed by the kernel, not only by the next query.
    keepAlive: true,
    // A dedicated schema lets tests share one database without touching each other's tables.
    ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
  });
  const connectionListeners: Array<(error: Error) => void> = [];
  // An idle client whose connection ends emits 'error' on the pool: heard here, the pool drops it and
  // opens a new one on demand. Unheard, Node would end the process (issue 23).
  const reportConnectionError = (error: Error) => {
    for (const listener of connectionListeners) listener(error);
  };
  pool.on('error', reportConnectionError);
  if (searchPath && createSchema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${searchPath.replace(/"/g, '')}"`);
    await admin.end();
  }
  return {
    db: drizzlePg(pool, { schema }) as unknown as Db,
    driver: 'postgres',
    exec: async (sql) => {
      await pool.query(sql);
    },
    statement: (name, text) => async (values) => (await pool.query<unknown[]>({ name, text, values, rowMode: 'array' })).rows,
    // pg takes a per-statement query_timeout that its QueryConfig type does not list.
    ping: async () => (await pool.query({ text: 'select 1 as ok', query_timeout: timeouts.pingMs } as pg.QueryConfig)).rows.length === 1,
    jobStore: {
      // Several statements in one text (pg-boss's migrations) answer one result each: their rows, flattened.
      executeSql: async (text: string, values?: unknown[]) => {
        const result = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
        return { rows: Array.isArray(result) ? result.flatMap((each) => each.rows) : result.rows };
      },
      // The queue's wake-up (server/jobs/queue.ts): the payload names the queue a job was sent to; after a
      // reconnection every worker looks once, for what was sent meanwhile.
      listen: async (channel, onNotification, onReconnect) => {
        const stop = await listenOnPostgres(url, timeouts, channel, { onNotify: (payload) => onNotification(payload ?? ''), onReconnect }, reportConnectionError);
        // pg-boss's contract: a look after every subscription, the first included.
        onReconnect();
        return { close: stop };
      },
    },
    // Tests give each file its own schema; its jobs live beside it.
    jobSchema: searchPath ? `${searchPath.replace(/"/g, '')}_jobs` : 'pgboss',
    onConnectionError: (listener) => {
      connectionListeners.push(listener);
    },
    listen: (channel, onNotify) => listenOnPostgres(url, timeouts, channel, { onNotify: () => onNotify(), onReconnect: onNotify }, reportConnectionError),
    close: () => pool.end(),
  };
}

/**
 * LISTEN on a connection of its own (a waiting relay or job worker holds no pool connection). A dropped
 * connection is opened again after a pause that doubles up to 30 s; `onReconnect` runs after each
 * reconnection, since a notification may have been missed meanwhile.
 */
async function listenOnPostgres(
  url: string,
  timeouts: DatabaseTimeouts,
  channel: string,
  { onNotify, onReconnect }: { onNotify: (payload: string | undefined) => void; onReconnect: () => void },
  onError: (error: Error) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = 500;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeouts.connectMs, keepAlive: true });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload);
    });
    next.on('error', (error) => {
      onError(error);
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      if (!stopped) retry = setTimeout(reconnect, retryMs);
    });
    await next.connect();
    await next.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    client = next;
    retryMs = 500;
  };
  const reconnect = () => {
    retryMs = Math.min(retryMs * 2, 30_000);
    connect()
      .then(onReconnect)
      .catch((error: Error) => {
        onError(error);
        if (!stopped) retry = setTimeout(reconnect, retryMs);
      });
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/** Applies every migration not yet applied, in file-name order, each in its own transaction. */
async function migrate(database: Database): Promise<void> {
  if (database.driver === 'postgres') {
    // The job queue's schema, made under the same lock: pg-boss's own CREATE SCHEMA IF NOT EXISTS fails
    // (a duplicate pg_namespace key) when two instances start at once on an empty database.
    await database.exec(
      `BEGIN; SELECT pg_advisory_xact_lock(hashtext('veil-migrations')); CREATE SCHEMA IF NOT EXISTS "${database.jobSchema}"; COMMIT;`,
    );
  }
  await database.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  for (const file of files) {
    const id = file.replace(/\.sql$/, '');
    // Several API instances may start at once on one PostgreSQL: the insert claims the migration first.
    const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
    await database.exec(
      `BEGIN;
       ${database.driver === 'postgres' ? "SELECT pg_advisory_xact_lock(hashtext('veil-migrations'));" : ''}
       DO $$ BEGIN
         IF NOT EXISTS (SELECT 1 FROM schema_migrations WHERE id = '${id}') THEN
           ${sql.replace(/--[^\n]*/g, '')}
           INSERT INTO schema_migrations (id) VALUES ('${id}');
         END IF;
       END $$;
       COMMIT;`,
    );
  }
}

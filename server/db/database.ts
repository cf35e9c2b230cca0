/**
 * Opens the database: PGlite in a data folder (the embedded default) or PostgreSQL when a URL is given,
 * runs the SQL migrations, and returns one drizzle handle whatever the driver.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
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
  close: () => Promise<void>;
}

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

export type DatabaseTarget = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string; schema?: string };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const database = target.kind === 'pglite' ? await openPglite(target.dataDir) : await openPostgres(target.url, target.schema);
  await migrate(database);
  return database;
}

async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
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
    close: () => client.close(),
  };
}

async function openPostgres(url: string, searchPath?: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // A dedicated schema lets tests share one database without touching each other's tables.
    ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
  });
  if (searchPath) {
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
    ping: async () => (await pool.query('select 1 as ok')).rows.length === 1,
    jobStore: {
      // Several statements in one text (pg-boss's migrations) answer one result each: their rows, flattened.
      executeSql: async (text: string, values?: unknown[]) => {
        const result = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
        return { rows: Array.isArray(result) ? result.flatMap((each) => each.rows) : result.rows };
      },
    },
    // Tests give each file its own schema; its jobs live beside it.
    jobSchema: searchPath ? `${searchPath.replace(/"/g, '')}_jobs` : 'pgboss',
    close: () => pool.end(),
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

/**
 * In-memory PGlite databases handed from one test API to the next in the same Vitest worker, instead of a new
 * one from the migrated dump each time (issue 50). A new one costs ~1 s of CPU here (unpacking the 42 MB dump
 * into PGlite's memory file system and starting the backend); putting a used one back as it came costs a few
 * dozen milliseconds.
 *
 * "As it came" is checked, not assumed: a database goes back to the pool only when its schema, roles, settings
 * and functions are still those of a new one (a fingerprint of the catalogue, taken once from the first new
 * database), and then every table of the app and of the job queue is emptied, its identities restarted, the
 * rows a new database holds put back, and the session reset (DISCARD ALL: settings, prepared statements,
 * LISTENs, advisory locks, temporary tables). A database a test changed in any other way is closed instead.
 */
import type { Database } from '../../server/db/database';

/** Blocks run one after another in a worker; two cover a test holding two APIs at once (relay-peers). */
const IDLE_LIMIT = 2;

/** The schemas whose contents a test changes: the app's and the job queue's (server/db/database.ts). */
const DATA_SCHEMAS = ['public', 'pgboss'];

/**
 * What makes one database differ from another beyond its rows: relations and their columns, constraints,
 * indexes, triggers (and whether they fire), functions, schemas, privileges, roles and settings.
 */
const FINGERPRINT_SQL = `
  SELECT md5(string_agg(item, E'\\n' ORDER BY item)) AS fingerprint FROM (
    SELECT format('rel %s.%s %s %s', n.nspname, c.relname, c.relkind, c.relacl) AS item
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg_temp%'
    UNION ALL SELECT format('col %s.%s.%s %s %s %s', table_schema, table_name, column_name, data_type, is_nullable, column_default)
      FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
    UNION ALL SELECT format('con %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
      FROM pg_constraint WHERE connamespace >= 16384
    UNION ALL SELECT format('idx %s', indexdef) FROM pg_indexes WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL SELECT format('trg %s %s %s', tgrelid::regclass, tgname, tgenabled) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT format('fn %s %s %s', p.oid::regprocedure, md5(p.prosrc), p.proacl) FROM pg_proc p WHERE p.pronamespace >= 16384
    UNION ALL SELECT format('nsp %s %s', nspname, nspacl) FROM pg_namespace
    UNION ALL SELECT format('role %s %s %s %s', rolname, rolsuper, rolcanlogin, rolbypassrls) FROM pg_roles
    UNION ALL SELECT format('member %s %s', roleid, member) FROM pg_auth_members
    UNION ALL SELECT format('setting %s', setconfig) FROM pg_db_role_setting
    UNION ALL SELECT format('ext %s %s', extname, extversion) FROM pg_extension
    UNION ALL SELECT format('db %s %s', datname, datacl) FROM pg_database
  ) AS catalogue`;

/** Every table holding rows (partitioned parents stand for their partitions), quoted for SQL. */
const TABLES_SQL = `
  SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`;

interface NewDatabase {
  fingerprint: string;
  tables: string[];
  /** The rows a new database holds (schema_migrations, pg-boss's version, instance and queue, peer_log's one), as JSON. */
  rows: Map<string, string>;
}

let newDatabase: Promise<NewDatabase> | undefined;
const idle: Database[] = [];

async function fingerprint(database: Database): Promise<string> {
  const [row] = await database.statement('veil_test_fingerprint', FINGERPRINT_SQL)([]);
  return String(row?.[0]);
}

async function describeNew(database: Database): Promise<NewDatabase> {
  const tables = (await database.statement('veil_test_tables', TABLES_SQL)([DATA_SCHEMAS])).map(([name]) => String(name));
  const rows = new Map<string, string>();
  for (const table of tables) {
    const [row] = await database.statement('veil_test_rows', `SELECT coalesce(json_agg(t), '[]')::text FROM ${table} AS t`)([]);
    const json = String(row?.[0]);
    if (json !== '[]') rows.set(table, json);
  }
  return { fingerprint: await fingerprint(database), tables, rows };
}

/** A database from the pool, and how to give it back (in place of closing it). */
export interface PooledDatabase {
  database: Database;
  /** Puts it back for the next API when it is still a new one but for its rows, or closes it. */
  release: () => Promise<'pooled' | 'closed'>;
}

/**
 * A database as new: one an earlier API gave back, or else `openNew()` (the first one it opens is described
 * before anything uses it, as what "new" means). What the API listens to is stopped when it is given back.
 */
export async function takeDatabase(openNew: () => Promise<Database>): Promise<PooledDatabase> {
  let database = idle.pop();
  if (!database) {
    database = await openNew();
    newDatabase ??= describeNew(database);
    await newDatabase;
  }
  const raw = database;
  const listening = new Set<() => Promise<void>>();
  const heard = async (stop: () => Promise<void>) => {
    listening.add(stop);
    return async () => {
      listening.delete(stop);
      await stop();
    };
  };
  const jobStoreListen = raw.jobStore.listen?.bind(raw.jobStore);
  const lent: Database = {
    ...raw,
    listen: async (channel, onNotify) => heard(await raw.listen(channel, onNotify)),
    // The job queue's wake-up listens on the same PGlite (server/jobs/queue.ts).
    jobStore: {
      ...raw.jobStore,
      ...(jobStoreListen
        ? {
            listen: async (channel, onNotification, onReconnect) => {
              const handle = await jobStoreListen(channel, onNotification, onReconnect);
              return { close: await heard(() => handle.close()) };
            },
          }
        : {}),
    },
  };
  return {
    database: lent,
    release: async () => {
      for (const stop of listening) await stop().catch(() => undefined);
      return giveBack(raw);
    },
  };
}

async function giveBack(database: Database): Promise<'pooled' | 'closed'> {
  const reference = await newDatabase;
  if (!reference || idle.length >= IDLE_LIMIT || (await fingerprint(database).catch(() => null)) !== reference.fingerprint) {
    await database.close();
    return 'closed';
  }
  try {
    await database.exec('DISCARD ALL');
    // Replica mode: no trigger fires, so the audit trail's refusal of TRUNCATE (migration 0017) does not
    // stop the reset, and no trigger writes as the rows go back.
    await database.exec(`SET session_replication_role = replica; TRUNCATE ${reference.tables.join(', ')} RESTART IDENTITY CASCADE`);
    for (const [table, json] of reference.rows) {
      await database.statement(`veil_test_rows_back_${table}`, `INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`)([json]);
    }
    await database.exec('RESET session_replication_role');
  } catch {
    await database.close();
    return 'closed';
  }
  idle.push(database);
  return 'pooled';
}

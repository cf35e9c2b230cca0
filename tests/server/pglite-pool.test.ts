/**
 * The test APIs' in-memory PGlite databases are handed from one API to the next (tests/support/pglite-pool.ts,
 * issue 50): the next API must find a database as new, or a new one when a test changed more than its rows.
 */
import { expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { takeDatabase } from '../support/pglite-pool';
import { migratedPgliteDump } from '../support/server-harness';

/** A new database from the migrated dump, as the harness opens one when the pool has none. */
const openNew = () =>
  openDatabase({
    kind: 'pglite',
    dataDir: null,
    startFrom: migratedPgliteDump(),
  });

/** A database from the pool, failing the test if the pool would rather open a new one (it hands the last given back first). */
const fromPoolOnly = () =>
  takeDatabase(() => {
    throw new Error('the pool opened a new database instead of handing back the one given back');
  });

const count = async (database: Database, sql: string) => Number((await database.statement('count', sql)([]))[0]![0]);

it('a database given back comes to the next API as new: no rows of the last, identities from 1, the seeded rows, the session reset', async () => {
  const first = await takeDatabase(openNew);
  const migrations = await count(first.database, 'SELECT count(*) FROM schema_migrations');
  await first.database.exec(`
    INSERT INTO users (id, identity_subject, provider, email) VALUES ('usr_pool', 'uid_pool', 'password', 'pool@example.com');
    INSERT INTO account_activity (user_id, kind, actor) VALUES ('usr_pool', 'signed_in', 'customer');
    INSERT INTO pgboss.job (name, data) VALUES ('__pgboss__send-it', '{}'::jsonb);
    UPDATE peer_log SET version = 41;
    SET TIME ZONE 'Pacific/Auckland';
  `);
  let heard = 0;
  await first.database.listen('veil_pool_test', () => void (heard += 1));
  expect(await first.release()).toBe('pooled');

  const next = await fromPoolOnly();
  const database = next.database;
  expect(await count(database, 'SELECT count(*) FROM users')).toBe(0);
  expect(await count(database, 'SELECT count(*) FROM account_activity')).toBe(0);
  expect(await count(database, 'SELECT count(*) FROM pgboss.job')).toBe(0);
  expect(await count(database, 'SELECT count(*) FROM schema_migrations')).toBe(migrations);
  expect(await count(database, 'SELECT version FROM peer_log')).toBe(0);
  expect((await database.statement('zone', 'SHOW TIME ZONE')([]))[0]![0]).not.toBe('Pacific/Auckland');
  await database.exec(`INSERT INTO users (id, identity_subject, provider, email) VALUES ('usr_again', 'uid_again', 'password', 'again@example.com');
    INSERT INTO account_activity (user_id, kind, actor) VALUES ('usr_again', 'signed_in', 'customer')`);
  expect(await count(database, 'SELECT id FROM account_activity')).toBe(1);
  // What the last API listened to is not heard by this one's database.
  await database.exec(`NOTIFY veil_pool_test`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(heard).toBe(0);
  expect(await next.release()).toBe('pooled');
});

it('a database whose schema, triggers or roles a test changed is closed, not handed to the next API', async () => {
  for (const change of [
    'CREATE TABLE left_behind (id int)',
    'ALTER TABLE users ADD COLUMN nickname text',
    'ALTER TABLE staff_actions DISABLE TRIGGER staff_actions_no_truncate',
    'CREATE ROLE veil_pool_left_behind',
  ]) {
    const taken = await takeDatabase(openNew);
    await taken.database.exec(change);
    expect(await taken.release(), change).toBe('closed');
  }
});

/**
 * The harness's reset between tests (tests/support/server-harness.ts) leaves every table of the schema empty,
 * on both databases, whatever the last test wrote: a row that outlives its test makes the next one pass or
 * fail by the order the files ran in. A table no foreign key reaches (notice_addresses) was once missed.
 */
import { getTableName } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { declaredTables } from '../support/schema-tables';

const tables = declaredTables.map((table) => getTableName(table));

describeApi('the reset between tests', { layer: 'sql' }, (api) => {
  test('empties every table of the schema, those no foreign key reaches too, and keeps peer_log\'s one row', async () => {
    await api.database.exec(`
      INSERT INTO users (id, identity_subject, provider, email) VALUES ('usr_reset', 'uid_reset', 'password', 'reset@example.com');
      INSERT INTO notice_addresses (id, email, name) VALUES ('notice_reset', 'reset@example.com', 'Reset');
    `);
    await api.reset();
    const rows = async (table: string) => Number((await api.database.statement(`count_${table}`, `SELECT count(*) FROM ${table}`)([]))[0]![0]);
    const left = Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await rows(table)] as const)));
    expect(left).toEqual(Object.fromEntries(tables.map((table) => [table, table === 'peer_log' ? 1 : 0])));
  });
});

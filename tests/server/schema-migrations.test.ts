/**
 * server/db/schema.ts (what drizzle reads and writes) says what the migrations made (issue 33, item 5): the
 * same tables, each with the same columns, types and nullability. A migrated database on PGlite is read
 * from the catalogue and compared with the table definitions, in both directions.
 */
import { getTableConfig } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { declaredTables } from '../support/schema-tables';

/** `table.column: type, null|not null`, one per column. */
type Columns = string[];

const HOW_TO_FIX =
  'server/db/schema.ts and server/db/migrations/ disagree. A new table or column goes in a migration (server/db/migrations/NNNN_<what>.sql) ' +
  'and in server/db/schema.ts with the same name, type and nullability.';

function declaredColumns(): Columns {
  return declaredTables
    .flatMap((table) => {
      const config = getTableConfig(table);
      const inPrimaryKey = new Set(config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name)));
      return config.columns.map(
        (column) => `${config.name}.${column.name}: ${column.getSQLType()}, ${column.notNull || inPrimaryKey.has(column.name) ? 'not null' : 'null'}`,
      );
    })
    .sort();
}

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite', dataDir: null });
});
afterAll(() => database?.close());

async function migratedColumns(): Promise<Columns> {
  const rows = await database.statement(
    'veil_schema_columns',
    `select c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
        and c.relname <> 'schema_migrations'`,
  )([]);
  return (rows as Array<[string, string, string, boolean]>).map(([table, column, type, notNull]) => `${table}.${column}: ${type}, ${notNull ? 'not null' : 'null'}`).sort();
}

describe('server/db/schema.ts and the migrations', () => {
  test('declare the same tables with the same columns, types and nullability', async () => {
    const migrated = await migratedColumns();
    const declared = declaredColumns();
    const onlyMigrated = migrated.filter((column) => !declared.includes(column));
    const onlyDeclared = declared.filter((column) => !migrated.includes(column));
    expect({ 'in the migrations only': onlyMigrated, 'in schema.ts only': onlyDeclared }, HOW_TO_FIX).toEqual({
      'in the migrations only': [],
      'in schema.ts only': [],
    });
    expect(migrated.length).toBeGreaterThan(50);
  });
});

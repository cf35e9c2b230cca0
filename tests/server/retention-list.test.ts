/**
 * Issue 31, item 1: the retention list (contract/retention.ts) names every table and column of the
 * migrated database, and nothing that does not exist, on PGlite and PostgreSQL.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { RETAINED_DATA, TABLES_WITHOUT_PERSONAL_DATA } from '../../contract/retention';
import { describeDatabase } from '../support/describe-api';

const HOW_TO_ADD =
  'Name it in contract/retention.ts: in `tables` of the RETAINED_DATA entry it belongs to (or a new entry saying what, why, ' +
  'how long and whether deletion removes it), or, if it holds nothing about a person, in TABLES_WITHOUT_PERSONAL_DATA with the ' +
  'reason. Then run `npm run docs:retention`.';

/** "table.column" for every column the list names. */
function namedColumns(): Set<string> {
  const named = new Set<string>();
  for (const entry of RETAINED_DATA) for (const [table, columns] of Object.entries(entry.tables ?? {})) for (const column of columns) named.add(`${table}.${column}`);
  for (const [table, { columns }] of Object.entries(TABLES_WITHOUT_PERSONAL_DATA)) for (const column of columns) named.add(`${table}.${column}`);
  return named;
}

describeDatabase('the retention list against the schema', (database) => {
  let existing: Set<string>;

  beforeAll(async () => {
    const rows = await database.statement(
      'retention_columns',
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    )([]);
    existing = new Set(rows.map(([table, column]) => `${String(table)}.${String(column)}`));
  });

  test('every column of every table is named in the list', () => {
    expect(existing.size).toBeGreaterThan(40);
    const unnamed = [...existing].filter((column) => !namedColumns().has(column));
    expect(unnamed, `These columns exist but the retention list does not name them: ${unnamed.join(', ')}. ${HOW_TO_ADD}`).toEqual([]);
  });

  test('the list names no table or column that does not exist', () => {
    const missing = [...namedColumns()].filter((column) => !existing.has(column));
    expect(missing, `The retention list (contract/retention.ts) names columns that no migration creates: ${missing.join(', ')}. Remove them (or fix the name).`).toEqual([]);
  });

  test('each column is named once, by one entry', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    const note = (column: string, by: string) => (seen.has(column) ? twice.push(`${column} (${seen.get(column)} and ${by})`) : seen.set(column, by));
    for (const entry of RETAINED_DATA) for (const [table, columns] of Object.entries(entry.tables ?? {})) for (const column of columns) note(`${table}.${column}`, entry.key);
    for (const [table, { columns }] of Object.entries(TABLES_WITHOUT_PERSONAL_DATA)) for (const column of columns) note(`${table}.${column}`, 'TABLES_WITHOUT_PERSONAL_DATA');
    expect(twice, 'A column belongs to one entry of contract/retention.ts').toEqual([]);
  });
});

describe('the retention list itself', () => {
  test('every entry says what, why, how long and what deletion does, and database entries name their tables', () => {
    const keys = new Set<string>();
    for (const entry of RETAINED_DATA) {
      expect(keys.has(entry.key), `key ${entry.key} twice`).toBe(false);
      keys.add(entry.key);
      for (const text of [entry.what, entry.why, entry.kept, entry.onDeletion]) expect(text.trim().length, entry.key).toBeGreaterThan(5);
      expect(entry.store === 'database', `${entry.key}: tables exactly when stored in the database`).toBe(Object.keys(entry.tables ?? {}).length > 0);
    }
    for (const store of ['database', 'job queue', 'logs', 'traces', 'metrics', 'mail']) {
      expect(RETAINED_DATA.some((entry) => entry.store === store), `nothing listed for ${store}`).toBe(true);
    }
  });
});

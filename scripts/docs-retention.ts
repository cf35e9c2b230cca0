/**
 * Writes docs/retention.md from the retention list (contract/retention.ts): `npm run docs:retention`.
 * tests/unit/retention-docs.test.ts fails when the committed file differs from what this generates.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RETAINED_DATA, TABLES_WITHOUT_PERSONAL_DATA } from '../contract/retention.ts';

export const RETENTION_DOC = join(import.meta.dirname, '..', 'docs', 'retention.md');

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function retentionDoc(): string {
  const where = (tables: Readonly<Record<string, readonly string[]>> | undefined, store: string) =>
    tables
      ? Object.entries(tables)
          .map(([table, columns]) => `\`${table}\` (${columns.map((column) => `\`${column}\``).join(', ')})`)
          .join('; ')
      : store;
  return [
    '# What we keep and for how long',
    '',
    'Generated from `contract/retention.ts` by `npm run docs:retention`; do not edit by hand. The privacy page',
    '(`/privacy`, "What we keep and for how long") shows the same list, and `tests/server/retention-list.test.ts`',
    'fails when a table or column of the database is not named here, or a name here does not exist.',
    '',
    '| what | where | why | how long | deleting the account | removed by deletion |',
    '|---|---|---|---|---|---|',
    ...RETAINED_DATA.map((entry) =>
      `| ${cell(entry.what)} | ${cell(where(entry.tables, entry.store))} | ${cell(entry.why)} | ${cell(entry.kept)} | ${cell(entry.onDeletion)} | ${entry.removedByDeletion ? 'yes' : 'no'} |`,
    ),
    '',
    '## Tables without personal data',
    '',
    '| table | columns | why it holds nothing about a person |',
    '|---|---|---|',
    ...Object.entries(TABLES_WITHOUT_PERSONAL_DATA).map(
      ([table, { columns, why }]) => `| \`${table}\` | ${columns.map((column) => `\`${column}\``).join(', ')} | ${cell(why)} |`,
    ),
    '',
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(RETENTION_DOC, retentionDoc());
  console.log('wrote docs/retention.md');
}

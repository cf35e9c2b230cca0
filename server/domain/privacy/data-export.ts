/**
 * The customer's copy of their data (issue 31, item 4; GDPR articles 15 and 20): everything the retention
 * list (contract/retention.ts) names for the account, read table by table from the list itself, so a table
 * named there is in the copy without a change here. Secrets are left out (SECRET_COLUMNS): token hashes,
 * hand-off codes, and links or ids that open a page by themselves (a receipt's too). Needs a sign-in within the last 10 minutes.
 */
import { sql } from 'drizzle-orm';
import type { AccountExport } from '../../../contract/api.ts';
import { ownerColumn, RETAINED_DATA, SECRET_COLUMNS } from '../../../contract/retention.ts';
import type { Db } from '../../db/database.ts';
import { accountOfIdentity, signedInRecently, type VerifiedIdentity } from '../accounts/accounts.ts';
import { failures } from '../errors.ts';
import { emailsSent } from '../customer-messages.ts';
import type { JobSender } from '../jobs.ts';

/** A value as JSON carries it: times as ISO 8601. */
const plain = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** The account's rows of `table`, without its secret columns. */
async function rowsOf(db: Db, table: string, columns: readonly string[], userId: string): Promise<Array<Record<string, unknown>>> {
  const shown = columns.filter((column) => !(SECRET_COLUMNS[table] ?? []).includes(column));
  const result = await db.execute(
    sql`select ${sql.join(shown.map((column) => sql.identifier(column)), sql`, `)} from ${sql.identifier(table)} where ${sql.identifier(ownerColumn(table))} = ${userId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
  return rows.map((row) => Object.fromEntries(shown.map((column) => [column, plain(row[column])])));
}

/**
 * The copy for the account of `identity`: 401 `reauth_required` unless it signed in within 10 minutes.
 * `admit` runs once that is known (the one-per-10-minutes limit), before anything is read.
 */
export async function exportAccountData(
  db: Db,
  jobs: JobSender,
  identity: VerifiedIdentity,
  admit: (userId: string) => Promise<void>,
  now = new Date(),
): Promise<AccountExport> {
  if (!signedInRecently(identity, now)) throw failures.reauthRequired();
  const user = await accountOfIdentity(db, identity);
  await admit(user.id);
  const parts: AccountExport['parts'] = [];
  for (const entry of RETAINED_DATA) {
    const owned = Object.entries(entry.tables ?? {}).filter(([table, columns]) => columns.includes(ownerColumn(table)));
    if (owned.length === 0) continue;
    const rows: Record<string, Array<Record<string, unknown>>> = {};
    for (const [table, columns] of owned) rows[table] = await rowsOf(db, table, columns, user.id);
    parts.push({ key: entry.key, what: entry.what, why: entry.why, kept: entry.kept, onDeletion: entry.onDeletion, rows });
  }
  return { exportedAt: now.toISOString(), accountId: user.id, parts, emailsSent: await emailsSent(db, jobs, user.id) };
}

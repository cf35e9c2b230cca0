/** The e-mails owed so far (jobs of the mail queue), as the mail worker (issue 21) will read them. */
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/database';

/** Of one kind, and of one account when `userId` is given (the queue is not emptied between tests). */
export async function mailsOwed(database: Database, kind: string, userId?: string): Promise<Array<Record<string, unknown>>> {
  const result = await database.db.execute(sql.raw(`select data from "${database.jobSchema}".job where name = 'mail'`));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ data: Record<string, unknown> }>;
  return rows.map((row) => row.data).filter((data) => data.kind === kind && (userId === undefined || data.userId === userId));
}

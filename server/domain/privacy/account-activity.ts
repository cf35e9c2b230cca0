/**
 * Account activity (issue 30, item 6): one row per thing that happened to an account, written in the
 * same transaction as the change (a device redeemed or revoked, auto-renewal off or on, a refund, a staff
 * action), read back by its owner newest first. Zero-log: the day only, never a time of day, an IP
 * address or a user agent; a staff action says "Veil support", never who or why.
 */
import { desc, eq } from 'drizzle-orm';
import type { ActivityDetail, ActivityItem, ActivityKind } from '../../../contract/account-activity.ts';
import type { Db } from '../../db/database.ts';
import { accountActivity } from '../../db/schema.ts';

export interface ActivityEntry {
  userId: string;
  kind: ActivityKind;
  by: 'customer' | 'support';
  detail?: ActivityDetail;
}

/** The UTC day of `now`, as the date column keeps it. */
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** Records one entry inside `tx`, the transaction of the change it tells of. */
export async function recordActivity(tx: Db, { userId, kind, by, detail = {} }: ActivityEntry, now = new Date()): Promise<void> {
  await tx.insert(accountActivity).values({ userId, kind, actor: by, detail, occurredOn: dayOf(now) });
}

/** How many entries the account page shows at most. */
const SHOWN = 100;

/** The account's own activity, newest first (within a day, in the order it happened, latest first). */
export async function accountActivityOf(db: Db, userId: string): Promise<ActivityItem[]> {
  const rows = await db
    .select()
    .from(accountActivity)
    .where(eq(accountActivity.userId, userId))
    .orderBy(desc(accountActivity.occurredOn), desc(accountActivity.id))
    .limit(SHOWN);
  return rows.map((row) => ({ kind: row.kind, by: row.actor, date: row.occurredOn, detail: row.detail }));
}

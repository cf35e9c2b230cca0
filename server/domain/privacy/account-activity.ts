/**
 * Account activity (issue 30, item 6): one row per thing that happened to an account, written in the
 * same transaction as the change (a device redeemed or revoked, auto-renewal off or on, a refund, a staff
 * action), read back by its owner newest first. Zero-log: the day only, never a time of day, an IP
 * address or a user agent; a staff action says "Veil support", never who or why.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ActivityDetail, ActivityKind } from '../../../contract/account-activity.ts';
import { ACTIVITY_PAGE, type AccountActivityPage } from '../../../contract/api.ts';
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

/** A page of the account's own activity (issue 45, T25): which one (`cursor`, from the last page) and how long. */
export interface ActivityPageRequest {
  cursor?: string;
  limit?: number;
}

/**
 * The account's own activity, newest first (within a day, in the order it happened, latest first), a page at a
 * time: `limit` entries after `cursor` (the day and number of the last entry of the page before), and the
 * cursor of the next page while there is one. Keyed by (day, number), so a new entry never shifts a page.
 */
export async function accountActivityOf(db: Db, userId: string, { cursor, limit = ACTIVITY_PAGE }: ActivityPageRequest = {}): Promise<AccountActivityPage> {
  const after = cursor ? cursor.split('.') : null;
  const rows = await db
    .select()
    .from(accountActivity)
    .where(
      and(
        eq(accountActivity.userId, userId),
        after ? sql`(${accountActivity.occurredOn}, ${accountActivity.id}) < (${after[0]}::date, ${Number(after[1])})` : undefined,
      ),
    )
    .orderBy(desc(accountActivity.occurredOn), desc(accountActivity.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({ kind: row.kind, by: row.actor, date: row.occurredOn, detail: row.detail })),
    nextCursor: rows.length > limit && last ? `${last.occurredOn}.${last.id}` : null,
  };
}

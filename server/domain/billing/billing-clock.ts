/**
 * The local checkout's billing clock offset (issue 11, item 10): how far developers and tests moved it
 * forward. It only ever moves forward.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { localBillingClock } from '../../db/schema.ts';

export async function billingClockOffsetSeconds(db: Db): Promise<number> {
  const [clock] = await db.select().from(localBillingClock);
  return clock?.offsetSeconds ?? 0;
}

export async function moveBillingClockForward(db: Db, bySeconds: number): Promise<void> {
  if (!Number.isInteger(bySeconds) || bySeconds < 0) throw new Error('the billing clock only moves forward');
  await db
    .insert(localBillingClock)
    .values({ id: 1, offsetSeconds: bySeconds })
    .onConflictDoUpdate({ target: localBillingClock.id, set: { offsetSeconds: sql`${localBillingClock.offsetSeconds} + ${bySeconds}` } });
}

/**
 * The address of an e-mail owed after its account is gone (issue 31): the deletion confirmation, and the
 * notice of a refund claimed just before deletion. The job names a row of `notice_addresses`, never the
 * address, so no job payload (waiting, done or failed, with its output) ever holds an address or a name;
 * the mail worker reads the row when sending and deletes it once the mail server took the message, or
 * when the message failed for good. One row per message, so deleting it never takes another's address.
 *
 * A refund made before its account was deleted may still fail at the provider (its refund.failed comes
 * days later), and the policy promises a notice of that too: such a refund keeps a standby row until
 * `keepUntil` (REFUND_FAILURE_WATCH_MS), which the daily clean-up deletes after that day.
 */
import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { noticeAddresses } from '../../db/schema.ts';
import { newId } from '../tokens.ts';

export interface NoticeAddress {
  email: string;
  name: string;
}

/** How long a refund made before deletion keeps a standby address for its failure notice: Stripe reports a refund's failure within about 30 days. */
export const REFUND_FAILURE_WATCH_MS = 30 * 86_400_000;

/** Keeps `to` for one message (or, with `keepUntil`, as a refund's standby); answers the id its job names. */
export async function keepNoticeAddress(tx: Db, to: NoticeAddress, keepUntil: Date | null = null): Promise<string> {
  const id = newId('ntc');
  await tx.insert(noticeAddresses).values({ id, email: to.email, name: to.name, keepUntil });
  return id;
}

/** The address kept under `id`; null once its message was sent (or dropped). */
export async function readNoticeAddress(db: Db, id: string): Promise<NoticeAddress | null> {
  const [row] = await db.select({ email: noticeAddresses.email, name: noticeAddresses.name }).from(noticeAddresses).where(eq(noticeAddresses.id, id));
  return row ?? null;
}

/** A standby address becomes a message's own (the message deletes it once sent): no expiry any more. */
export async function handNoticeAddressToMessage(tx: Db, id: string): Promise<void> {
  await tx.update(noticeAddresses).set({ keepUntil: null }).where(eq(noticeAddresses.id, id));
}

/** The address kept under `id` is deleted: its message was sent, failed for good, or is owed no more. */
export async function forgetNoticeAddress(db: Db, id: string): Promise<void> {
  await db.delete(noticeAddresses).where(eq(noticeAddresses.id, id));
}

/** The daily clean-up: standby addresses past their day (the refund did not fail). Answers how many. */
export async function purgeExpiredNoticeAddresses(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(noticeAddresses)
    .where(and(isNotNull(noticeAddresses.keepUntil), lt(noticeAddresses.keepUntil, now)))
    .returning({ id: noticeAddresses.id });
  return gone.length;
}

/**
 * The daily clean-up (issue 31, item 2; design §7e: "purges run on a schedule, not by chance"): everything
 * the retention list (contract/retention.ts) keeps only for a while is deleted once that while is over, so
 * every stated period holds on an instance that runs for months. Run by a pg-boss schedule once a day
 * (server/jobs/retention-purge-job.ts) and at start-up; each statement is idempotent.
 */
import { and, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { deletedAccounts, handoffTokens, localCheckoutSessions, localPortalSessions, openCheckouts, refunds, staffActions } from '../../db/schema.ts';
import { purgeExpiredTombstones } from '../accounts/accounts.ts';
import { DELETED_ACCOUNT_MEMORY_MS } from './deletion.ts';
import { purgeExpiredNoticeAddresses } from './notice-addresses.ts';
import { trimPeerChangeLog } from '../devices/relay-peers.ts';
import { ACCOUNTING_RECORD_YEARS, STAFF_AUDIT_YEARS } from '../../../contract/retention.ts';

/** How long a local checkout page is kept after it was opened (it is payable for an hour). */
const ENDED_LINK_KEPT_MS = 86_400_000;

/** What one run deleted, by kind (logged, and read by tests). */
export interface PurgeCounts {
  handoffs: number;
  checkouts: number;
  localCheckouts: number;
  portalLinks: number;
  tombstones: number;
  deletedAccounts: number;
  /** Standby addresses of refunds made before deletion that did not fail within the watch. */
  noticeAddresses: number;
  /** Refunds of deleted accounts past the accounting records' period. */
  accountingRecords: number;
  /** Staff actions and looks past their stated years (issue 46, item 11). */
  staffAudit: number;
  /** The VPN servers' change-log rows past their 7 days (issue 49, item 2: not only when a relay polls). */
  peerChanges: number;
}

function yearsBefore(now: Date, years: number): Date {
  const then = new Date(now);
  then.setUTCFullYear(then.getUTCFullYear() - years);
  return then;
}

export async function purgeExpiredData(db: Db, cooldownSeconds: number, now = new Date()): Promise<PurgeCounts> {
  const count = (rows: unknown[]) => rows.length;
  return {
    // A hand-off code redeems once, within its 2 minutes.
    handoffs: count(
      await db
        .delete(handoffTokens)
        .where(or(isNotNull(handoffTokens.usedAt), lt(handoffTokens.expiresAt, now)))
        .returning({ tokenHash: handoffTokens.tokenHash }),
    ),
    checkouts: count(await db.delete(openCheckouts).where(lt(openCheckouts.expiresAt, now)).returning({ userId: openCheckouts.userId })),
    // A local checkout page is payable for an hour; a day later it still says "paid" or "expired" to
    // someone coming back to it, then it goes.
    localCheckouts: count(
      await db
        .delete(localCheckoutSessions)
        .where(lt(localCheckoutSessions.createdAt, new Date(now.getTime() - ENDED_LINK_KEPT_MS)))
        .returning({ id: localCheckoutSessions.id }),
    ),
    portalLinks: count(await db.delete(localPortalSessions).where(lt(localPortalSessions.expiresAt, now)).returning({ id: localPortalSessions.id })),
    tombstones: await purgeExpiredTombstones(db, cooldownSeconds, now),
    deletedAccounts: count(
      await db
        .delete(deletedAccounts)
        .where(lt(deletedAccounts.deletedAt, new Date(now.getTime() - DELETED_ACCOUNT_MEMORY_MS)))
        .returning({ userIdHash: deletedAccounts.userIdHash }),
    ),
    noticeAddresses: await purgeExpiredNoticeAddresses(db, now),
    // A refund of a deleted account, settled, is an accounting record for its stated years after it was owed.
    accountingRecords: count(
      await db
        .delete(refunds)
        .where(and(isNull(refunds.userId), ne(refunds.state, 'owed'), lt(refunds.owedAt, yearsBefore(now, ACCOUNTING_RECORD_YEARS))))
        .returning({ owedAt: refunds.owedAt }),
    ),
    // The audit trail, reasons and search texts with it, for its stated years (the database refuses sooner).
    staffAudit: count(await db.delete(staffActions).where(lt(staffActions.occurredAt, yearsBefore(now, STAFF_AUDIT_YEARS))).returning({ id: staffActions.id })),
    peerChanges: await trimPeerChangeLog(db, now),
  };
}

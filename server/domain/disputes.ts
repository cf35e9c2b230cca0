/**
 * Disputes of a customer's payments (issue 34): Stripe's `charge.dispute.*` events, stored by the account
 * whose customer the disputed charge belongs to. While one is open, the money-back claim is refused (the
 * card issuer holds the money and decides; Stripe refuses to refund a disputed charge).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { disputes } from '../db/schema.ts';
import { findUserIdByCustomer } from './accounts.ts';

/** Stripe's dispute statuses while the issuer has not decided. */
const OPEN_STATUSES = ['warning_needs_response', 'warning_under_review', 'needs_response', 'under_review'];

export interface ProviderDispute {
  id: string;
  chargeId: string | null;
  paymentIntent: string | null;
  status: string;
  /** The provider's time of the event, in seconds. */
  providerTime: number;
}

/**
 * Stores a dispute's state for the account of `customer`; an older event never overwrites a newer one.
 * Answers false when the customer is nobody's here.
 */
export async function recordDispute(db: Db, customer: string | null, dispute: ProviderDispute): Promise<boolean> {
  const userId = customer ? await findUserIdByCustomer(db, customer) : null;
  if (!userId) return false;
  const { providerTime, ...rest } = dispute;
  await db
    .insert(disputes)
    .values({ ...rest, userId, providerUpdatedAt: providerTime, openedAt: new Date(providerTime * 1000) })
    .onConflictDoUpdate({
      target: disputes.id,
      set: { status: dispute.status, providerUpdatedAt: providerTime },
      setWhere: sql`${disputes.providerUpdatedAt} <= excluded.provider_updated_at`,
    });
  return true;
}

export async function hasOpenDispute(db: Db, userId: string): Promise<boolean> {
  const open = await db
    .select({ id: disputes.id })
    .from(disputes)
    .where(and(eq(disputes.userId, userId), inArray(disputes.status, OPEN_STATUSES)))
    .limit(1);
  return open.length > 0;
}

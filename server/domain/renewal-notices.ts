/**
 * The daily sweep of subscriptions that are due a notice (issue 21 §5, after Mozilla's
 * subscription-reminders): renewal reminders 30 and 7 days before an auto-renewing plan renews, "ends in
 * 7 days" for a plan whose auto-renewal is off, and "has ended" once it ended. Every plan is yearly (one
 * price). Each notice is keyed by kind, subscription and period (the period's end), so however often the
 * sweep runs (daily, at each billing-clock move, on several instances at once) each is sent once per period.
 * `now` is the billing clock's time (the local checkout's clock moves; otherwise real time).
 */
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { subscriptions } from '../db/schema.ts';
import { oweCustomerMessage } from './customer-messages.ts';
import type { JobSender } from './jobs.ts';

const DAY_MS = 86_400_000;

/** What a renewal costs, stated in the reminder. */
export interface RenewalPrice {
  amount: number;
  currency: string;
}

/** Owes every notice due at `now`; answers how many were newly owed. */
export async function oweRenewalNotices(db: Db, jobs: JobSender, now: Date, price: RenewalPrice): Promise<number> {
  const in30Days = new Date(now.getTime() + 30 * DAY_MS);
  const in7Days = new Date(now.getTime() + 7 * DAY_MS);
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const columns = {
    id: subscriptions.providerSubscriptionId,
    userId: subscriptions.userId,
    status: subscriptions.status,
    cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
    periodEnd: subscriptions.currentPeriodEnd,
  };
  const renewing = await db
    .select(columns)
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, 'active'),
        eq(subscriptions.cancelAtPeriodEnd, false),
        gt(subscriptions.currentPeriodEnd, now),
        lte(subscriptions.currentPeriodEnd, in30Days),
      ),
    );
  // Renewal off: ending within 7 days, or ended within the last 7 (a later sweep no longer says so).
  const ending = await db
    .select(columns)
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.cancelAtPeriodEnd, true),
        inArray(subscriptions.status, ['active', 'past_due', 'cancelled']),
        gt(subscriptions.currentPeriodEnd, weekAgo),
        lte(subscriptions.currentPeriodEnd, in7Days),
      ),
    );

  let owed = 0;
  for (const row of renewing) {
    const periodEnd = row.periodEnd!;
    // A renewal first seen within 7 days gets the 7-day reminder only: two reminders at once say nothing more.
    const daysBefore: 7 | 30 = periodEnd.getTime() - now.getTime() <= 7 * DAY_MS ? 7 : 30;
    // The heading says the days there really are: a reminder first owed 25 days before says 25, not 30.
    const daysLeft = Math.ceil((periodEnd.getTime() - now.getTime()) / DAY_MS);
    const message = { userId: row.userId, kind: 'renewal_reminder' as const, daysBefore, daysLeft, renewalDate: periodEnd.toISOString(), ...price, card: null };
    if (await oweCustomerMessage(db, jobs, message, `${row.id}:${periodEnd.toISOString()}:${daysBefore}`)) owed += 1;
  }
  for (const row of ending) {
    const periodEnd = row.periodEnd!;
    const ended = periodEnd.getTime() <= now.getTime();
    // A subscription ended before its period did (deletion, a refund) is not "ending": its own message says so.
    if (!ended && row.status === 'cancelled') continue;
    const endDate = periodEnd.toISOString();
    const message = ended ? { userId: row.userId, kind: 'plan_ended' as const, endDate } : { userId: row.userId, kind: 'plan_ending' as const, endDate };
    if (await oweCustomerMessage(db, jobs, message, `${row.id}:${periodEnd.toISOString()}`)) owed += 1;
  }
  return owed;
}

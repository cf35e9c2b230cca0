/**
 * The daily sweep of subscriptions that are due a notice (issue 21 §5, after Mozilla's
 * subscription-reminders): renewal reminders RENEWAL_REMINDER_DAYS before an auto-renewing plan renews,
 * "ends in PLAN_ENDING_NOTICE_DAYS days" for a plan whose auto-renewal is off, and "has ended" once it
 * ended (contract/plans.ts: one plan, one price). Each notice is keyed by kind, subscription and period (the period's end), so however often the
 * sweep runs (daily, at each billing-clock move, on several instances at once) each is sent once per period.
 * `now` is the billing clock's time (the local checkout's clock moves; otherwise real time).
 */
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import { daysInMs, PLAN_ENDING_NOTICE_DAYS, RENEWAL_REMINDER_DAYS, type Plan } from '../../../contract/plans.ts';
import type { Db } from '../../db/database.ts';
import { subscriptions } from '../../db/schema.ts';
import { oweCustomerMessage } from '../customer-messages.ts';
import type { JobSender } from '../jobs.ts';

/** Reminder days, latest first: a renewal is reminded of by the last of them it has reached. */
const REMINDERS_LATEST_FIRST = [...RENEWAL_REMINDER_DAYS].sort((a, b) => a - b);

/** Owes every notice due at `now` for `plan` (its price is stated in the reminder); answers how many were newly owed. */
export async function oweRenewalNotices(db: Db, jobs: JobSender, now: Date, plan: Pick<Plan, 'amount' | 'currency'>): Promise<number> {
  const price = { amount: plan.amount, currency: plan.currency };
  const firstReminder = new Date(now.getTime() + daysInMs(Math.max(...RENEWAL_REMINDER_DAYS)));
  const endingNotice = new Date(now.getTime() + daysInMs(PLAN_ENDING_NOTICE_DAYS));
  const endedNoticeUntil = new Date(now.getTime() - daysInMs(PLAN_ENDING_NOTICE_DAYS));
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
        lte(subscriptions.currentPeriodEnd, firstReminder),
      ),
    );
  // Renewal off: ending within the notice's days, or ended within as many days (a later sweep no longer says so).
  const ending = await db
    .select(columns)
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.cancelAtPeriodEnd, true),
        inArray(subscriptions.status, ['active', 'past_due', 'cancelled']),
        gt(subscriptions.currentPeriodEnd, endedNoticeUntil),
        lte(subscriptions.currentPeriodEnd, endingNotice),
      ),
    );

  let owed = 0;
  for (const row of renewing) {
    const periodEnd = row.periodEnd!;
    // A renewal first seen past a reminder's day gets the latest reminder it reached only: two at once say nothing more.
    const daysBefore = REMINDERS_LATEST_FIRST.find((days) => periodEnd.getTime() - now.getTime() <= daysInMs(days))!;
    // The heading says the days there really are: a reminder first owed after its day says fewer than its day.
    const daysLeft = Math.ceil((periodEnd.getTime() - now.getTime()) / daysInMs(1));
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

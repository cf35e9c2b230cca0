/**
 * The money-back guarantee, self-served (issue 20, item 4; design §8): within MONEY_BACK_DAYS
 * (contract/plans.ts) of the live subscription's first payment, the subscription ends now (access with it) and
 * that payment is refunded in full, by the refund job (refunds.ts), owed in the same transaction as the end
 * (issue 46, item 3: the payment of the subscription it ends). Once per account.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Subscription } from '../../../contract/api.ts';
import { daysInMs, MONEY_BACK_DAYS } from '../../../contract/plans.ts';
import type { Db } from '../../db/database.ts';
import { refunds, subscriptions } from '../../db/schema.ts';
import { accountOfIdentity, type VerifiedIdentity } from '../accounts/accounts.ts';
import { recordActivity } from '../privacy/account-activity.ts';
import { chargesOf, firstChargeOf, firstChargeOfSubscription, latestChargeOf, type ChargeRow } from './charges.ts';
import { hasOpenDispute } from './disputes.ts';
import { failures } from '../errors.ts';
import type { JobSender } from '../jobs.ts';
import { oweRefund, providerRefundsOf, refundsOf } from './refunds.ts';
import { findLiveSubscriptions, shownSubscription, type SubscriptionRow } from './subscriptions.ts';
import { syncPeerAccess } from '../devices/peer-access.ts';

const MONEY_BACK_MS = daysInMs(MONEY_BACK_DAYS);

/**
 * What the guarantee would refund now: the live subscription and its first payment (issue 46, item 3: the
 * payment of the subscription the refund ends, not the account's first payment ever, which may be of a plan
 * that ended long ago). Undefined fields: no live subscription, or it was never paid (a trial).
 */
async function guaranteedPayment(db: Db, userId: string, now: Date): Promise<{ live?: SubscriptionRow; first?: ChargeRow }> {
  const [live] = await findLiveSubscriptions(db, userId, now);
  if (!live) return {};
  return { live, first: await firstChargeOfSubscription(db, live.providerSubscriptionId) };
}

/**
 * Until when the account may still claim the guarantee, or null: nothing live or paid, the window over,
 * claimed already, a payment disputed with the card issuer (issue 46, item 2), or the payment refunded in
 * full already (the Dashboard; item 8).
 */
export async function refundableUntil(db: Db, userId: string, now: Date): Promise<Date | null> {
  const { first } = await guaranteedPayment(db, userId, now);
  if (!first || windowEnd(first) <= now || (await hasClaimed(db, userId)) || (await hasOpenDispute(db, userId))) return null;
  if ((await alreadyRefunded(db, userId, first)) >= first.amount) return null;
  return windowEnd(first);
}

const windowEnd = (first: ChargeRow) => new Date(first.paidAt.getTime() + MONEY_BACK_MS);

async function hasClaimed(db: Db, userId: string): Promise<boolean> {
  const claimed = await db
    .select({ id: refunds.providerSubscriptionId })
    .from(refunds)
    .where(and(eq(refunds.userId, userId), eq(refunds.reason, 'money_back')));
  return claimed.length > 0;
}

export async function claimMoneyBack(
  db: Db,
  jobs: JobSender,
  identity: Pick<VerifiedIdentity, 'subject'>,
  now: Date,
): Promise<{ subscription: Subscription | null; refund: { amount: number; currency: string } }> {
  const { id: userId } = await accountOfIdentity(db, identity);
  const refund = await db.transaction((tx) => refundNow(tx, jobs, userId, { by: 'customer', outsideWindow: false }, now));
  return { subscription: await shownSubscription(db, userId, now), refund };
}

/**
 * Inside `tx`: ends the account's live subscription now and owes the refund of its payment, with the
 * activity entry. Inside the window (the customer's claim, or support doing it for them) the live
 * subscription's first payment is refunded, once per account; `outsideWindow` (support, an admin with a reason) refunds the
 * live subscription's latest payment whatever its age. The customer's own refund is recorded in their
 * activity here; support's is recorded by the staff action (one entry, "Veil support").
 */
export async function refundNow(
  tx: Db,
  jobs: JobSender,
  userId: string,
  { by, outsideWindow }: { by: 'customer' | 'support'; outsideWindow: boolean },
  now: Date,
): Promise<{ amount: number; currency: string }> {
  // Two claims at once (two tabs): the second waits, then finds the first one's refund.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('veil-money-back'), hashtext(${userId}))`);
  const claimed = await hasClaimed(tx, userId);
  const { live, first } = await guaranteedPayment(tx, userId, now);
  const inWindow = first !== undefined && windowEnd(first) > now && !claimed;
  if (!inWindow && !outsideWindow) {
    if (claimed) throw failures.alreadyRefunded();
    // Never paid: no guarantee started, so none "has ended" (issue 34).
    if (!(await firstChargeOf(tx, userId))) throw failures.nothingToRefund();
    if (!live) throw failures.noSubscription();
    throw failures.refundWindowClosed();
  }
  // The card issuer holds a disputed payment and decides; Stripe refuses to refund it meanwhile.
  if (await hasOpenDispute(tx, userId)) throw failures.disputeOpen();
  if (!live) throw failures.noSubscription();
  const paid = inWindow ? first : await latestChargeOf(tx, live.providerSubscriptionId);
  if (!paid) throw failures.noSubscription();
  // A partial refund made in the Stripe Dashboard already returned part of it: Stripe refunds what is left.
  // All of it returned already: nothing is owed, and the subscription is not ended for nothing (issue 46, item 8).
  const owed = { amount: paid.amount - (await alreadyRefunded(tx, userId, paid)), currency: paid.currency };
  if (owed.amount <= 0) throw failures.paymentRefundedAlready();
  await tx
    .update(subscriptions)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(subscriptions.providerSubscriptionId, live.providerSubscriptionId), inArray(subscriptions.status, ['active', 'past_due'])));
  // The refund ends access now: the account's keys leave the peer list (issue 29).
  await syncPeerAccess(tx, userId, now);
  await oweRefund(tx, jobs, {
    providerSubscriptionId: live.providerSubscriptionId,
    userId,
    provider: live.provider,
    reason: inWindow ? 'money_back' : 'staff',
    // Exactly that payment (the first one, as the guarantee promises; not the latest invoice, e.g. a proration).
    chargeId: paid.id,
    amount: owed.amount,
  });
  if (by === 'customer') await recordActivity(tx, { userId, kind: 'refund', by, detail: owed }, now);
  return owed;
}

/**
 * What the provider reported refunded of `paid` before this refund (a partial refund in the Stripe
 * Dashboard), capped at the payment, none of our own refunds. A charge that names its payment (its
 * payment intent) counts exactly the reports of that payment. One stored before charges named it (or
 * whose payment was never known) counts the reports after it, in its currency, that name no payment
 * another charge of the account is known by.
 */
async function alreadyRefunded(tx: Db, userId: string, paid: ChargeRow): Promise<number> {
  const ours = new Set((await refundsOf(tx, userId)).map((refund) => refund.paymentIntent).filter(Boolean));
  const otherPayments = new Set((await chargesOf(tx, userId)).filter((charge) => charge.id !== paid.id).map((charge) => charge.paymentIntent).filter(Boolean));
  const ofPaid = (refund: { paymentIntent: string | null; refundedAt: Date; currency: string }) =>
    paid.paymentIntent
      ? refund.paymentIntent === paid.paymentIntent
      : refund.refundedAt >= paid.paidAt && refund.currency === paid.currency && !(refund.paymentIntent && otherPayments.has(refund.paymentIntent));
  const reported = (await providerRefundsOf(tx, userId)).filter((refund) => ofPaid(refund) && !(refund.paymentIntent && ours.has(refund.paymentIntent)));
  return Math.min(paid.amount, reported.reduce((sum, refund) => sum + refund.amount, 0));
}

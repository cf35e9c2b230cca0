/**
 * Disputes of a customer's payments (issue 34): Stripe's `charge.dispute.*` events, stored by the account
 * whose plan payment the disputed charge is. While one is open, the money-back claim is refused and not
 * offered (the card issuer holds the money and decides; Stripe refuses to refund a disputed charge). A lost
 * dispute gave the customer their money back: access ends and the plan does not renew (issue 46, item 2).
 * Another product's disputes are not ours (item 6): a dispute is stored only when it names a payment of the
 * plan (or, for a charge stored before charges named their payment, one of the account's customer).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { charges, disputes, refunds, subscriptions } from '../../db/schema.ts';
import type { JobSender } from '../jobs.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { syncPeerAccess } from '../devices/peer-access.ts';
import { findLiveSubscriptions, lockSubscription } from './subscriptions.ts';

/** Stripe's dispute statuses while the issuer has not decided. */
const OPEN_STATUSES = ['warning_needs_response', 'warning_under_review', 'needs_response', 'under_review'];

/** The queue of "auto-renewal off" calls a lost dispute owes at the provider (worked by server/jobs/billing-jobs.ts). */
export const RENEWAL_OFF_QUEUE = 'provider-renewal-off';

export interface RenewalOffJob {
  subscriptionId: string;
}

export interface ProviderDispute {
  id: string;
  chargeId: string | null;
  paymentIntent: string | null;
  status: string;
  /** The provider's time of the event, in seconds. */
  providerTime: number;
}

/** The account whose plan payment `paymentIntent` is (a charge of ours, or a refund we made of it), or null. */
export async function accountOfPlanPayment(db: Db, paymentIntent: string): Promise<string | null> {
  const [charge] = await db.select({ userId: charges.userId }).from(charges).where(eq(charges.paymentIntent, paymentIntent)).limit(1);
  if (charge) return charge.userId;
  const [refund] = await db.select({ userId: refunds.userId }).from(refunds).where(eq(refunds.paymentIntent, paymentIntent)).limit(1);
  return refund?.userId ?? null;
}

/**
 * Whether a payment reported for account `userId` may be the plan's: it names a payment of ours, or it
 * names none, or the account holds a charge stored before charges named their payment (then we cannot tell,
 * and count it, as before). Another product's payment on the same Stripe customer is not (issue 46, item 6).
 */
export async function mayBePlanPayment(db: Db, userId: string, paymentIntent: string | null): Promise<boolean> {
  if (!paymentIntent || (await accountOfPlanPayment(db, paymentIntent)) === userId) return true;
  const [unnamed] = await db
    .select({ id: charges.id })
    .from(charges)
    .where(and(eq(charges.userId, userId), sql`${charges.paymentIntent} is null`))
    .limit(1);
  return Boolean(unnamed);
}

/**
 * Stores a dispute's state for account `userId`; an older event never overwrites a newer one. Answers
 * whether this event's state is the one stored now.
 */
export async function recordDispute(db: Db, userId: string, dispute: ProviderDispute): Promise<boolean> {
  const { providerTime, ...rest } = dispute;
  const stored = await db
    .insert(disputes)
    .values({ ...rest, userId, providerUpdatedAt: providerTime, openedAt: new Date(providerTime * 1000) })
    .onConflictDoUpdate({
      target: disputes.id,
      set: { status: dispute.status, providerUpdatedAt: providerTime },
      setWhere: sql`${disputes.providerUpdatedAt} <= excluded.provider_updated_at`,
    })
    .returning({ id: disputes.id });
  return stored.length > 0;
}

export async function hasOpenDispute(db: Db, userId: string): Promise<boolean> {
  const open = await db
    .select({ id: disputes.id })
    .from(disputes)
    .where(and(eq(disputes.userId, userId), inArray(disputes.status, OPEN_STATUSES)))
    .limit(1);
  return open.length > 0;
}

/**
 * A dispute lost (issue 46, item 2): the card issuer gave the customer the money back, so the subscription
 * that payment paid for ends here now (its keys leave the peer list) and its renewal is turned off at the
 * provider by a job owed in this transaction (nothing is charged again; no refund: the money is back). The
 * subscription is the disputed payment's; when that payment is not known here, the account's live one.
 * One that ended already, or a payment of an earlier subscription, changes nothing.
 */
export async function endAccessForLostDispute(db: Db, jobs: JobSender, userId: string, paymentIntent: string | null, billingNow: Date): Promise<void> {
  const [paid] = paymentIntent
    ? await db.select({ subscriptionId: charges.providerSubscriptionId }).from(charges).where(eq(charges.paymentIntent, paymentIntent)).limit(1)
    : [];
  const live = (await findLiveSubscriptions(db, userId, billingNow)).filter((row) => !paid?.subscriptionId || row.providerSubscriptionId === paid.subscriptionId);
  for (const subscription of live) {
    // As a subscription event holds it: one delivered at the same moment applies before or after this end, never over it.
    await lockSubscription(db, subscription.providerSubscriptionId);
    await db
      .update(subscriptions)
      .set({ status: 'cancelled', cancelAtPeriodEnd: true, updatedAt: new Date() })
      .where(and(eq(subscriptions.providerSubscriptionId, subscription.providerSubscriptionId), inArray(subscriptions.status, ['active', 'past_due'])));
    if (subscription.provider === 'stripe') {
      await jobs.send(db, RENEWAL_OFF_QUEUE, { subscriptionId: subscription.providerSubscriptionId } satisfies RenewalOffJob, `dispute-lost:${subscription.providerSubscriptionId}`);
    }
  }
  await syncPeerAccess(db, userId, billingNow);
}

/**
 * The job: auto-renewal off at the provider. A subscription that has ended there already (or is gone)
 * needs nothing; any other failure is thrown for the job to retry.
 */
export async function turnOffRenewalAtProvider(payments: PaymentProvider, job: RenewalOffJob): Promise<void> {
  try {
    await payments.cancelAtPeriodEnd(job.subscriptionId);
  } catch (error) {
    const now = await payments.retrieveSubscription?.(job.subscriptionId).catch(() => undefined);
    if (now === null || (now && ['canceled', 'incomplete_expired'].includes(now.providerStatus))) return;
    throw error;
  }
}

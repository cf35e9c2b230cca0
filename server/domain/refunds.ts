/**
 * Refunds the product owes (issue 20, items 1 and 4; issue 34: refunds have a life; design §7b). An owed
 * refund is a row written in the transaction that decides it (a webhook's, or the money-back call's),
 * with the job that carries it out at the provider: both commit or neither does. No later event removes
 * the row, so a `customer.subscription.deleted` arriving before the provider answered cannot skip it.
 *
 * Its life (docs/decisions.md, "Refund states"): `owed`, then `made` (the money left: the refund e-mail),
 * `failed` for good with the provider's reason (an alert, and an e-mail saying support will contact the
 * customer), or `not_owed` (the subscription was ended by someone else, or nothing was paid). A refund
 * the provider accepted as pending stays owed until its own events say made or failed.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { providerRefunds, refunds } from '../db/schema.ts';
import type { PaymentProvider, RefundResult } from './payment-provider.ts';
import { chargeToRefund } from './charges.ts';
import { oweCustomerMessage } from './customer-messages.ts';
import type { JobSender } from './jobs.ts';

/** The queue of provider refunds (declared and worked by server/jobs/billing-jobs.ts). */
export const REFUND_QUEUE = 'provider-refund';

export interface RefundJob {
  subscriptionId: string;
}

type RefundRow = typeof refunds.$inferSelect;
type RefundReason = RefundRow['reason'];

export interface OwedRefund {
  providerSubscriptionId: string;
  userId: string | null;
  provider: 'stripe' | 'local';
  reason: RefundReason;
  /** The charge the rule refunds (money-back: the first payment); left out: the subscription's latest. */
  chargeId?: string;
  /** Less than the charge when part of it was refunded already (a partial refund in the Dashboard). */
  amount?: number;
}

/** What became of one attempt of the refund job (the job counts failures for the alert). */
export type RefundOutcome = 'made' | 'pending' | 'failed' | 'not_owed' | 'nothing_to_do';

const refundKey = (subscriptionId: string) => `refund:${subscriptionId}`;

/**
 * Records `refund` as owed and enqueues its job, inside `tx`; a refund already owed for it stays as it was.
 * Its amount is the refunded charge's when that is known here already, otherwise the provider's once made.
 */
export async function oweRefund(tx: Db, jobs: JobSender, refund: OwedRefund): Promise<void> {
  const charge = await chargeToRefund(tx, refund.providerSubscriptionId, refund.chargeId ?? null);
  await tx
    .insert(refunds)
    .values({ ...refund, chargeId: refund.chargeId ?? null, amount: refund.amount ?? charge?.amount ?? null, currency: charge?.currency ?? null })
    .onConflictDoNothing({ target: refunds.providerSubscriptionId });
  await jobs.send(tx, REFUND_QUEUE, { subscriptionId: refund.providerSubscriptionId } satisfies RefundJob, refundKey(refund.providerSubscriptionId));
}

/**
 * The refund job: ends the subscription at the provider and refunds it, then records what became of it.
 * Throwing leaves the row owed and the job is retried; the provider adapter makes sure a retry never
 * refunds twice.
 */
export async function carryOutRefund(db: Db, payments: PaymentProvider, jobs: JobSender, { subscriptionId }: RefundJob): Promise<RefundOutcome> {
  const [owed] = await db.select().from(refunds).where(eq(refunds.providerSubscriptionId, subscriptionId));
  // Made, failed or not owed already; or accepted as pending, whose own events settle it.
  if (!owed || owed.state !== 'owed' || owed.providerRefundId) return 'nothing_to_do';
  const result = await payments.cancelAndRefund({
    subscriptionId,
    key: refundKey(subscriptionId),
    chargeId: owed.chargeId,
    owed: owed.amount !== null && owed.currency ? { amount: owed.amount, currency: owed.currency } : null,
    // Stored before the provider is asked: its charge.refunded may arrive before its answer.
    onPaymentChosen: async (paymentIntent) => {
      await db.update(refunds).set({ paymentIntent }).where(eq(refunds.providerSubscriptionId, subscriptionId));
    },
  });
  return db.transaction((tx) => recordRefundResult(tx, jobs, owed, result));
}

async function recordRefundResult(tx: Db, jobs: JobSender, owed: RefundRow, result: RefundResult, now = new Date()): Promise<RefundOutcome> {
  const row = eq(refunds.providerSubscriptionId, owed.providerSubscriptionId);
  switch (result.kind) {
    case 'not_owed':
      await tx.update(refunds).set({ state: 'not_owed', stateReason: result.reason, ...FORGET_NOTICE_ADDRESS }).where(and(row, eq(refunds.state, 'owed')));
      return 'not_owed';
    case 'failed':
      await failRefund(tx, jobs, owed.providerSubscriptionId, result.reason, now);
      return 'failed';
    case 'made': {
      const { refundId: providerRefundId, paymentIntent, amount, currency } = result;
      await tx.update(refunds).set({ providerRefundId, paymentIntent, amount, currency }).where(row);
      if (result.pending) return 'pending';
      await makeRefund(tx, jobs, owed.providerSubscriptionId, now);
      return 'made';
    }
  }
}

/**
 * Deletion: each refund of the account still owed keeps the address its notice goes to (the account row that
 * holds it goes now), until the notice is owed or nothing turns out to be owed (issue 31).
 */
export async function keepRefundNoticeAddress(tx: Db, userId: string, to: { email: string; name: string }): Promise<void> {
  await tx.update(refunds).set({ notifyEmail: to.email, notifyName: to.name }).where(and(eq(refunds.userId, userId), eq(refunds.state, 'owed')));
}

/** Who the notice of refund `row` goes to: its account, or the address deletion kept for it; null: nobody. */
function noticeRecipient(row: Pick<RefundRow, 'userId' | 'notifyEmail' | 'notifyName'>): { userId: string } | { email: string; name: string } | null {
  if (row.userId) return { userId: row.userId };
  if (row.notifyEmail) return { email: row.notifyEmail, name: row.notifyName ?? '' };
  return null;
}

/** The address deletion kept leaves the row with the change that settles the refund. */
const FORGET_NOTICE_ADDRESS = { notifyEmail: null, notifyName: null } as const;

/** The refund's row as it is before `tx` changes it (the address a settling update clears). */
async function refundBefore(tx: Db, subscriptionId: string): Promise<RefundRow | undefined> {
  const [row] = await tx.select().from(refunds).where(eq(refunds.providerSubscriptionId, subscriptionId));
  return row;
}

/** The money left: the row says so and the customer is owed the refund e-mail, for Stripe's amount. */
async function makeRefund(tx: Db, jobs: JobSender, subscriptionId: string, now: Date): Promise<void> {
  const before = await refundBefore(tx, subscriptionId);
  const [made] = await tx
    .update(refunds)
    .set({ state: 'made', refundedAt: now, ...FORGET_NOTICE_ADDRESS })
    .where(and(eq(refunds.providerSubscriptionId, subscriptionId), eq(refunds.state, 'owed')))
    .returning();
  const to = before && noticeRecipient(before);
  if (made && to && made.amount !== null && made.currency) {
    await oweCustomerMessage(
      tx,
      jobs,
      { kind: 'refund', ...to, amount: made.amount, currency: made.currency, refundedAt: now.toISOString(), reason: made.reason },
      subscriptionId,
    );
  }
}

/**
 * The refund failed for good: recorded with the reason, and the customer told that support will contact
 * them (the alert is the caller's: a counter the on-call runbook watches). Answers false if it had failed already.
 */
async function failRefund(tx: Db, jobs: JobSender, subscriptionId: string, reason: string, now: Date): Promise<boolean> {
  const before = await refundBefore(tx, subscriptionId);
  const [failed] = await tx
    .update(refunds)
    .set({ state: 'failed', stateReason: reason, failedAt: now, ...FORGET_NOTICE_ADDRESS })
    .where(and(eq(refunds.providerSubscriptionId, subscriptionId), inArray(refunds.state, ['owed', 'made'])))
    .returning();
  if (!failed) return false;
  const to = before && noticeRecipient(before);
  if (to && failed.amount !== null && failed.currency) {
    await oweCustomerMessage(
      tx,
      jobs,
      { kind: 'refund_failed', ...to, amount: failed.amount, currency: failed.currency, failedAt: now.toISOString() },
      subscriptionId,
    );
  }
  return true;
}

/** A refund's later status as the provider reports it (Stripe's refund.updated, refund.failed, charge.refund.updated). */
export interface ProviderRefundStatus {
  refundId: string;
  status: 'succeeded' | 'failed' | 'pending';
  /** The provider's failure reason (`failure_reason`), when failed. */
  failureReason: string | null;
}

/**
 * Applies a refund's later status to the refund made here that it names: a pending refund becomes made; a
 * refund that fails (even one made) becomes failed. Answers 'failed' when it newly failed (the alert),
 * 'applied' for any other change, 'ignored' when it names no refund of ours or changes nothing.
 */
export async function applyRefundStatus(tx: Db, jobs: JobSender, update: ProviderRefundStatus, now = new Date()): Promise<'failed' | 'applied' | 'ignored'> {
  const [ours] = await tx.select().from(refunds).where(eq(refunds.providerRefundId, update.refundId));
  if (!ours) return 'ignored';
  if (update.status === 'failed') {
    return (await failRefund(tx, jobs, ours.providerSubscriptionId, update.failureReason ?? 'failed', now)) ? 'failed' : 'ignored';
  }
  if (update.status === 'succeeded' && ours.state === 'owed') {
    await makeRefund(tx, jobs, ours.providerSubscriptionId, now);
    return 'applied';
  }
  return 'ignored';
}

/** The account's refunds in any state (billing history, the money-back rule). */
export function refundsOf(db: Db, userId: string) {
  return db.select().from(refunds).where(eq(refunds.userId, userId));
}

export interface ProviderRefund {
  /** The refunded charge's id. */
  id: string;
  paymentIntent: string | null;
  /** All refunded of that charge so far. */
  amount: number;
  currency: string;
  /** The provider's time of the report. */
  refundedAt: Date;
  receiptUrl: string | null;
}

/**
 * Stores a refund the provider reports: a later report of the same charge (another partial refund)
 * replaces the total, an older one delivered late never does (Stripe does not promise order).
 */
export async function recordProviderRefund(tx: Db, userId: string, refund: ProviderRefund): Promise<void> {
  await tx
    .insert(providerRefunds)
    .values({ ...refund, userId })
    .onConflictDoUpdate({
      target: providerRefunds.id,
      set: { amount: refund.amount, refundedAt: refund.refundedAt },
      setWhere: sql`${providerRefunds.refundedAt} <= excluded.refunded_at`,
    });
}

/** The account's refunds as the provider reported them. */
export function providerRefundsOf(db: Db, userId: string) {
  return db.select().from(providerRefunds).where(eq(providerRefunds.userId, userId));
}

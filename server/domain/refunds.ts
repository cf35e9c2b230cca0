/**
 * Refunds the product owes (issue 20, items 1 and 4; design §7b). An owed refund is a row written in the
 * transaction that decides it (a webhook's, or the money-back call's), with the job that carries it out
 * at the provider: both commit or neither does. No later event reads or removes the row, so a
 * `customer.subscription.deleted` arriving before the provider answered cannot skip it; the job retries
 * with backoff until the provider has ended the subscription and returned the money, with Stripe
 * idempotency keys derived from the job's key.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { providerRefunds, refunds } from '../db/schema.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { oweCustomerMessage } from './customer-messages.ts';
import type { JobSender } from './jobs.ts';

/** The queue of provider refunds (declared and worked by buildApp). */
export const REFUND_QUEUE = 'provider-refund';

export interface RefundJob {
  subscriptionId: string;
}

type RefundReason = (typeof refunds.$inferInsert)['reason'];

export interface OwedRefund {
  providerSubscriptionId: string;
  userId: string | null;
  provider: 'stripe' | 'local';
  reason: RefundReason;
  amount: number;
  currency: string;
}

const refundKey = (subscriptionId: string) => `refund:${subscriptionId}`;

/** Records `refund` as owed and enqueues its job, inside `tx`; a refund already owed for it stays as it was. */
export async function oweRefund(tx: Db, jobs: JobSender, refund: OwedRefund): Promise<void> {
  await tx.insert(refunds).values(refund).onConflictDoNothing({ target: refunds.providerSubscriptionId });
  await jobs.send(tx, REFUND_QUEUE, { subscriptionId: refund.providerSubscriptionId } satisfies RefundJob, refundKey(refund.providerSubscriptionId));
}

/**
 * The refund job: ends the subscription at the provider and refunds it, then stamps the row and owes
 * the customer the refund e-mail. Throwing leaves the row owed and the job is retried.
 */
export async function carryOutRefund(db: Db, payments: PaymentProvider, jobs: JobSender, { subscriptionId }: RefundJob): Promise<void> {
  const [owed] = await db.select().from(refunds).where(eq(refunds.providerSubscriptionId, subscriptionId));
  if (!owed || owed.refundedAt) return;
  const { paymentIntent } = await payments.cancelAndRefund(subscriptionId, refundKey(subscriptionId));
  await db.transaction(async (tx) => {
    const now = new Date();
    const [done] = await tx
      .update(refunds)
      .set({ refundedAt: now, paymentIntent })
      .where(and(eq(refunds.providerSubscriptionId, subscriptionId), isNull(refunds.refundedAt)))
      .returning();
    if (done?.userId) {
      await oweCustomerMessage(
        tx,
        jobs,
        { kind: 'refund', userId: done.userId, amount: done.amount, currency: done.currency, refundedAt: now.toISOString(), reason: done.reason },
        subscriptionId,
      );
    }
  });
}

/** The account's refunds, owed or made (billing history, the money-back rule). */
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
  refundedAt: Date;
  receiptUrl: string | null;
}

/** Stores a refund the provider reports (a later partial refund of the same charge updates its amount). */
export async function recordProviderRefund(tx: Db, userId: string, refund: ProviderRefund): Promise<void> {
  await tx
    .insert(providerRefunds)
    .values({ ...refund, userId })
    .onConflictDoUpdate({ target: providerRefunds.id, set: { amount: refund.amount, refundedAt: refund.refundedAt } });
}

/** The account's refunds as the provider reported them. */
export function providerRefundsOf(db: Db, userId: string) {
  return db.select().from(providerRefunds).where(eq(providerRefunds.userId, userId));
}

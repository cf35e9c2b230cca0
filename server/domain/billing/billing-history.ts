/**
 * The account's billing history (issue 20, item 2): its charges (charges.ts) and the refunds made
 * (refunds.ts), newest first, only ever the account's own; with it, until when the money-back guarantee
 * can still be claimed. And the local checkout's receipt, found by its unguessable receipt number.
 */
import { desc, eq } from 'drizzle-orm';
import type { BillingItem } from '../../../contract/api.ts';
import type { Db } from '../../db/database.ts';
import { charges, refunds, users } from '../../db/schema.ts';
import { PLAN } from '../../../contract/plans.ts';
import { refundableUntil } from './money-back.ts';
import { findLiveSubscriptions } from './subscriptions.ts';
import { providerRefundsOf, refundsOf } from './refunds.ts';

type RefundRow = typeof refunds.$inferSelect;

/** What the history says of a renewal the card declined. */
const FAILED_RENEWAL_TEXT = 'Renewal payment failed';

/** What the history says of a refund in each state. */
const REFUND_TEXT = {
  owed: 'Refund in progress',
  made: 'Refund',
  failed: 'Refund failed: our support team will contact you',
} as const;

/**
 * A refund of ours as the history shows it, or null: one not owed after all (nothing was refunded), or
 * one whose amount is not known yet (the provider says it once made).
 */
function shownRefund(refund: RefundRow): { state: keyof typeof REFUND_TEXT; amount: number; currency: string; date: Date } | null {
  if (refund.state === 'not_owed' || refund.amount === null || !refund.currency) return null;
  const date = refund.state === 'failed' ? refund.failedAt : refund.state === 'made' ? refund.refundedAt : refund.owedAt;
  return { state: refund.state, amount: refund.amount, currency: refund.currency, date: date ?? refund.owedAt };
}

export async function billingHistory(
  db: Db,
  userId: string,
  localReceiptUrl: (chargeId: string) => string,
  /** The billing clock's time: the money-back offer's window is judged by it. */
  now: Date,
): Promise<{ items: BillingItem[]; refundableUntil?: string }> {
  const paid = await db.select().from(charges).where(eq(charges.userId, userId)).orderBy(desc(charges.paidAt));
  const items: BillingItem[] = paid.map((charge) => ({
    id: charge.id,
    kind: 'charge',
    amount: charge.amount,
    currency: charge.currency,
    date: charge.paidAt.toISOString(),
    description: charge.description,
    // Stripe's charges carry Stripe's hosted invoice page; the local checkout's have the API's own.
    receiptUrl: charge.receiptUrl ?? (charge.provider === 'local' ? localReceiptUrl(charge.id) : null),
  }));
  // Stripe's own reports of refunds (with its receipt), then the refunds owed, made or failed here that
  // Stripe has not reported (matched by payment, which is stored before Stripe is asked, so a refund in
  // flight is listed once), and the local checkout's. A refund of ours that failed stands for its payment.
  const ours = await refundsOf(db, userId);
  // Stripe's report of a refund that then failed is not shown; a report after the failure is a refund made
  // since (support's, in the Dashboard, as docs/operations.md says): shown.
  const failedAt = new Map(ours.filter((refund) => refund.state === 'failed' && refund.paymentIntent).map((refund) => [refund.paymentIntent!, refund.failedAt ?? refund.owedAt]));
  const reported = (await providerRefundsOf(db, userId)).filter((refund) => {
    const failed = refund.paymentIntent ? failedAt.get(refund.paymentIntent) : undefined;
    return !failed || refund.refundedAt > failed;
  });
  const reportedPayments = new Set(reported.map((refund) => refund.paymentIntent).filter(Boolean));
  for (const refund of reported) {
    items.push({
      id: refund.id,
      kind: 'refund',
      amount: refund.amount,
      currency: refund.currency,
      date: refund.refundedAt.toISOString(),
      description: REFUND_TEXT.made,
      receiptUrl: refund.receiptUrl,
      refundState: 'made',
    });
  }
  for (const refund of ours) {
    const shown = shownRefund(refund);
    if (!shown) continue;
    if (shown.state !== 'failed' && refund.paymentIntent && reportedPayments.has(refund.paymentIntent)) continue;
    items.push({
      id: `refund_${refund.providerSubscriptionId}`,
      kind: 'refund',
      amount: shown.amount,
      currency: shown.currency,
      date: shown.date.toISOString(),
      description: REFUND_TEXT[shown.state],
      receiptUrl: null,
      refundState: shown.state,
    });
  }
  // A declined renewal is listed while the subscription waits for it (issue 45, T24): the charge that failed, on
  // the renewal day the card shows, for the plan's price. Once paid, the paid charge stands in its place.
  for (const live of await findLiveSubscriptions(db, userId, now)) {
    if (live.status !== 'past_due' || !live.currentPeriodEnd) continue;
    items.push({
      id: `failed_${live.providerSubscriptionId}`,
      kind: 'failed',
      amount: PLAN.amount,
      currency: PLAN.currency,
      date: live.currentPeriodEnd.toISOString(),
      description: FAILED_RENEWAL_TEXT,
      receiptUrl: null,
    });
  }
  items.sort((a, b) => b.date.localeCompare(a.date));
  const until = await refundableUntil(db, userId, now);
  return { items, ...(until ? { refundableUntil: until.toISOString() } : {}) };
}

/** A local-checkout charge as its printable receipt shows it (the account's current address). */
export async function localReceipt(db: Db, receiptNumber: string) {
  const [row] = await db
    .select({ charge: charges, email: users.email })
    .from(charges)
    .innerJoin(users, eq(users.id, charges.userId))
    .where(eq(charges.id, receiptNumber));
  if (!row || row.charge.provider !== 'local') return null;
  const { id, paidAt, description, amount, currency } = row.charge;
  return { number: id, email: row.email, paidAt, description, amount, currency };
}

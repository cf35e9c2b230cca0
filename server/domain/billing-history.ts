/**
 * The account's billing history (issue 20, item 2): its charges (charges.ts) and the refunds made
 * (refunds.ts), newest first, only ever the account's own; with it, until when the money-back guarantee
 * can still be claimed. And the local checkout's receipt, found by its unguessable receipt number.
 */
import { desc, eq } from 'drizzle-orm';
import type { BillingItem } from '../../contract/api.ts';
import type { Db } from '../db/database.ts';
import { charges, users } from '../db/schema.ts';
import { refundableUntil } from './money-back.ts';
import { providerRefundsOf, refundsOf } from './refunds.ts';

export async function billingHistory(
  db: Db,
  userId: string,
  localReceiptUrl: (chargeId: string) => string,
  now = new Date(),
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
  // Stripe's own reports of refunds (with its receipt), then the refunds owed or made here that Stripe
  // has not reported yet (matched by payment), and the local checkout's.
  const reported = await providerRefundsOf(db, userId);
  const reportedPayments = new Set(reported.map((refund) => refund.paymentIntent).filter(Boolean));
  for (const refund of reported) {
    items.push({
      id: refund.id,
      kind: 'refund',
      amount: refund.amount,
      currency: refund.currency,
      date: refund.refundedAt.toISOString(),
      description: 'Refund',
      receiptUrl: refund.receiptUrl,
    });
  }
  for (const refund of await refundsOf(db, userId)) {
    if (refund.paymentIntent && reportedPayments.has(refund.paymentIntent)) continue;
    // Shown from the moment it is owed (the refund job is making it), dated when it was made once it is.
    items.push({
      id: `refund_${refund.providerSubscriptionId}`,
      kind: 'refund',
      amount: refund.amount,
      currency: refund.currency,
      date: (refund.refundedAt ?? refund.owedAt).toISOString(),
      description: 'Refund',
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

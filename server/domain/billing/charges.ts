/**
 * What the customer paid (issue 20, item 2): every charge the provider reported (`invoice.paid`, from
 * Stripe or from the local checkout), stored in the event's transaction with the receipt e-mail it owes.
 * The billing history (billing-history.ts) shows them with the account's refunds.
 */
import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { charges } from '../../db/schema.ts';
import { oweCustomerMessage } from '../customer-messages.ts';
import type { JobSender } from '../jobs.ts';

export type ChargeRow = typeof charges.$inferSelect;

export interface PaidCharge {
  /** The provider's invoice id. */
  id: string;
  providerSubscriptionId: string | null;
  amount: number;
  currency: string;
  paidAt: Date;
  description: string;
  /** Stripe's hosted invoice page; null for the local checkout, whose receipt page is the API's own. */
  receiptUrl: string | null;
  /** When the plan renews next (the paid period's end), for the receipt. */
  nextRenewal: Date | null;
  /**
   * The provider's payment that paid it (Stripe's payment intent), when known: a refund the provider
   * reports names it, so it is counted against exactly this charge (money-back.ts). Null: not known.
   */
  paymentIntent: string | null;
}

export interface FailedCharge {
  invoiceId: string;
  providerSubscriptionId: string | null;
  amount: number;
  currency: string;
  failedAt: Date;
}

/** Stores a charge of `userId` once (an event delivered twice changes nothing) and owes its receipt. */
export async function recordCharge(tx: Db, jobs: JobSender, userId: string, provider: 'stripe' | 'local', charge: PaidCharge): Promise<boolean> {
  const { nextRenewal, ...row } = charge;
  const stored = await tx
    .insert(charges)
    .values({ ...row, userId, provider })
    .onConflictDoNothing({ target: charges.id })
    .returning({ id: charges.id });
  if (stored.length === 0) return false;
  await oweCustomerMessage(
    tx,
    jobs,
    {
      kind: 'receipt',
      userId,
      amount: charge.amount,
      currency: charge.currency,
      paidAt: charge.paidAt.toISOString(),
      description: charge.description,
      nextRenewal: nextRenewal?.toISOString() ?? null,
    },
    charge.id,
  );
  return true;
}

/** The account's first charge (whether it ever paid). */
export async function firstChargeOf(db: Db, userId: string): Promise<ChargeRow | undefined> {
  const [first] = await db.select().from(charges).where(eq(charges.userId, userId)).orderBy(asc(charges.paidAt)).limit(1);
  return first;
}

/** A subscription's first payment: the money-back guarantee runs from the live subscription's (issue 46, item 3). */
export async function firstChargeOfSubscription(db: Db, providerSubscriptionId: string): Promise<ChargeRow | undefined> {
  const [first] = await db.select().from(charges).where(eq(charges.providerSubscriptionId, providerSubscriptionId)).orderBy(asc(charges.paidAt)).limit(1);
  return first;
}

/** Every charge of the account. */
export function chargesOf(db: Db, userId: string): Promise<ChargeRow[]> {
  return db.select().from(charges).where(eq(charges.userId, userId));
}

/** When a subscription was first paid for: its anniversaries count from it (the local billing clock). */
export async function subscriptionStart(db: Db, providerSubscriptionId: string): Promise<Date | null> {
  const [first] = await db
    .select({ paidAt: charges.paidAt })
    .from(charges)
    .where(eq(charges.providerSubscriptionId, providerSubscriptionId))
    .orderBy(asc(charges.paidAt))
    .limit(1);
  return first?.paidAt ?? null;
}

/**
 * The charge a refund returns: `chargeId` when the rule names one (money-back), otherwise the
 * subscription's latest. Undefined when nothing was paid (a trial).
 */
export async function chargeToRefund(db: Db, providerSubscriptionId: string, chargeId: string | null): Promise<ChargeRow | undefined> {
  if (!chargeId) return latestChargeOf(db, providerSubscriptionId);
  const [row] = await db.select().from(charges).where(eq(charges.id, chargeId));
  return row;
}

/** A subscription's latest payment (support's refund outside the money-back window returns it). */
export async function latestChargeOf(db: Db, providerSubscriptionId: string): Promise<ChargeRow | undefined> {
  const [latest] = await db
    .select()
    .from(charges)
    .where(eq(charges.providerSubscriptionId, providerSubscriptionId))
    .orderBy(desc(charges.paidAt))
    .limit(1);
  return latest;
}

/**
 * Owes the receipt of the account's latest payment again (support's "resend receipt"), keyed by `about`
 * (the audit row's moment) so that a deliberate resend is not taken for a duplicate of the first one.
 */
export async function oweReceiptAgain(tx: Db, jobs: JobSender, userId: string, about: string): Promise<boolean> {
  const [latest] = await tx.select().from(charges).where(eq(charges.userId, userId)).orderBy(desc(charges.paidAt)).limit(1);
  if (!latest) return false;
  await oweCustomerMessage(
    tx,
    jobs,
    { kind: 'receipt', userId, amount: latest.amount, currency: latest.currency, paidAt: latest.paidAt.toISOString(), description: latest.description, nextRenewal: null },
    `${latest.id}:resent:${about}`,
  );
  return true;
}

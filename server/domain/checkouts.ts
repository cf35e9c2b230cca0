/**
 * Opening a checkout (issue 10, section 3): never while the account has a live subscription, one open
 * checkout at a time (reused until shortly before it expires), and one provider customer per account.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { openCheckouts, users } from '../db/schema.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { UserRow } from './accounts.ts';
import { ApiFailure, failures } from './errors.ts';
import { findLiveSubscriptions } from './subscriptions.ts';

/** An open checkout is offered again only if the customer still has this long to pay in it. */
export const CHECKOUT_REUSE_MARGIN_MS = 10 * 60_000;

export async function openCheckout(db: Db, payments: PaymentProvider, user: UserRow, now = new Date()): Promise<string> {
  const [live] = await findLiveSubscriptions(db, user.id);
  if (live) throw live.status === 'past_due' ? failures.subscriptionPastDue() : failures.alreadySubscribed();

  const [open] = await db
    .select()
    .from(openCheckouts)
    .where(
      and(
        eq(openCheckouts.userId, user.id),
        eq(openCheckouts.provider, payments.kind),
        gt(openCheckouts.expiresAt, new Date(now.getTime() + CHECKOUT_REUSE_MARGIN_MS)),
      ),
    );
  if (open) return open.url;

  const customerId = await customerOf(db, payments, user);
  const opened = await payments.createCheckout({ userId: user.id, email: user.email, customerId });
  const row = { provider: payments.kind, checkoutId: opened.id, url: opened.url, expiresAt: opened.expiresAt, createdAt: now };
  await db
    .insert(openCheckouts)
    .values({ userId: user.id, ...row })
    .onConflictDoUpdate({ target: openCheckouts.userId, set: row });
  return opened.url;
}

/** The account's one provider customer: made before its first checkout and stored, so every checkout uses it. */
async function customerOf(db: Db, payments: PaymentProvider, user: UserRow): Promise<string | null> {
  if (user.paymentCustomerId || !payments.createCustomer) return user.paymentCustomerId;
  const created = await payments.createCustomer({ userId: user.id, email: user.email });
  await db
    .update(users)
    .set({ paymentCustomerId: created })
    .where(and(eq(users.id, user.id), isNull(users.paymentCustomerId)));
  const [stored] = await db.select({ customer: users.paymentCustomerId }).from(users).where(eq(users.id, user.id));
  if (!stored?.customer) throw new ApiFailure(401, 'Please sign in again before continuing.');
  return stored.customer;
}

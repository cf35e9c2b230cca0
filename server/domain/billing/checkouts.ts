/**
 * Opening a checkout (issue 10, section 3): never while the account has a live subscription, one open
 * checkout at a time (reused until shortly before it expires), and one provider customer per account.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { localCheckoutSessions, openCheckouts, users } from '../../db/schema.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { accountOfIdentity, claimPaymentCustomer, findUserById, type UserRow, type VerifiedIdentity } from '../accounts/accounts.ts';
import { ApiFailure, failures } from '../errors.ts';
import { findLiveSubscriptions } from './subscriptions.ts';
import { newId } from '../tokens.ts';

/** An open checkout is offered again only if the customer still has this long to pay in it. */
const CHECKOUT_REUSE_MARGIN_MS = 10 * 60_000;

/** `billingNow` judges what is live (the billing clock's grace period); `now` the open checkouts' expiry. */
async function openCheckout(db: Db, payments: PaymentProvider, user: UserRow, billingNow: Date, now = new Date()): Promise<string> {
  const [live] = await findLiveSubscriptions(db, user.id, billingNow);
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
  // Read again under the checkout's lock: a checkout that held it before may have made the customer (each
  // attempt to make one has a key of its own, so Stripe would make a second).
  const [fresh] = await db.select({ customer: users.paymentCustomerId }).from(users).where(eq(users.id, user.id));
  if (fresh?.customer) return fresh.customer;
  const stored = await claimPaymentCustomer(db, user.id, await payments.createCustomer({ userId: user.id, email: user.email, replacing: user.paymentCustomersDeleted }));
  if (!stored) throw failures.signInRequired();
  return stored;
}

/** Opens a checkout from the provider for the account of a verified identity; a provider fault is a 502. */
export async function openCheckoutFor(db: Db, payments: PaymentProvider, identity: Pick<VerifiedIdentity, 'subject'>, billingNow: Date): Promise<string> {
  const user = await accountOfIdentity(db, identity);
  try {
    // The local checkout keeps its sessions in this database (a transaction here would wait on itself on
    // PGlite), and its Pay refuses a second payment anyway.
    if (payments.kind === 'local') return await openCheckout(db, payments, user, billingNow);
    // Two Stripe checkouts asked for at the same moment (two tabs, a double click) open one payable
    // session: the second waits for the first's lock, then finds its open checkout (issue 20, item 6).
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('veil-checkout'), hashtext(${user.id}))`);
      return openCheckout(tx, payments, user, billingNow);
    });
  } catch (error) {
    if (error instanceof ApiFailure) throw error;
    throw failures.providerFailed('Failed to create checkout session', error);
  }
}

/** A checkout that ended at the provider (paid or expired) is no longer offered again. */
export async function forgetOpenCheckout(db: Db, checkoutId: string): Promise<void> {
  await db.delete(openCheckouts).where(eq(openCheckouts.checkoutId, checkoutId));
}

// The local checkout's own sessions (server/payments/local-provider.ts hosts their page).

/** A local checkout can be paid for an hour, like a Stripe one with `expires_at`. */
const LOCAL_CHECKOUT_LIFETIME_MS = 3600_000;

export async function createLocalCheckout(db: Db, userId: string, createdAt = new Date()): Promise<{ id: string; expiresAt: Date }> {
  const id = newId('cs_local');
  await db.insert(localCheckoutSessions).values({ id, userId, status: 'open', createdAt });
  return { id, expiresAt: new Date(createdAt.getTime() + LOCAL_CHECKOUT_LIFETIME_MS) };
}

/** A local checkout with its account's e-mail; an open one past its lifetime reads as expired. */
export async function findLocalCheckout(db: Db, id: string, now = new Date()) {
  const [session] = await db
    .select({
      id: localCheckoutSessions.id,
      status: localCheckoutSessions.status,
      createdAt: localCheckoutSessions.createdAt,
      email: users.email,
    })
    .from(localCheckoutSessions)
    .innerJoin(users, eq(users.id, localCheckoutSessions.userId))
    .where(eq(localCheckoutSessions.id, id));
  if (!session) return null;
  const expired = session.status === 'open' && now.getTime() - session.createdAt.getTime() >= LOCAL_CHECKOUT_LIFETIME_MS;
  return { id: session.id, email: session.email, status: expired ? ('expired' as const) : session.status };
}

const freshLocalCheckout = (id: string, now: Date) =>
  and(
    eq(localCheckoutSessions.id, id),
    eq(localCheckoutSessions.status, 'open'),
    gt(localCheckoutSessions.createdAt, new Date(now.getTime() - LOCAL_CHECKOUT_LIFETIME_MS)),
  );

/** The account of a local checkout that can still be paid; 404 otherwise. */
export async function payableLocalCheckoutOwner(db: Db, id: string, now = new Date()): Promise<string> {
  const [open] = await db.select().from(localCheckoutSessions).where(freshLocalCheckout(id, now));
  if (!open) throw failures.notFound('Open checkout');
  return open.userId;
}

/** Marks a payable local checkout paid and answers its account; 404 when it could no longer be paid. */
export async function completeLocalCheckout(db: Db, id: string, now = new Date()): Promise<UserRow> {
  const [session] = await db.update(localCheckoutSessions).set({ status: 'completed' }).where(freshLocalCheckout(id, now)).returning();
  if (!session) throw failures.notFound('Open checkout');
  const user = await findUserById(db, session.userId);
  if (!user) throw failures.notFound('Account');
  return user;
}

export async function cancelLocalCheckout(db: Db, id: string): Promise<void> {
  await db
    .update(localCheckoutSessions)
    .set({ status: 'cancelled' })
    .where(and(eq(localCheckoutSessions.id, id), eq(localCheckoutSessions.status, 'open')));
  await forgetOpenCheckout(db, id);
}

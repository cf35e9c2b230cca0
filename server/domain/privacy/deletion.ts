/**
 * Account deletion (design §7): only with a live session of that very account; the account's open
 * checkout is closed and its provider subscriptions are ended first (if that fails nothing is deleted),
 * then the account and everything hanging off it go in one transaction, leaving only a tombstone: hashes
 * of the identity subject and of the e-mail address, for the cool-down; and the hash of the user id, so a
 * payment that still completes for the account is refunded (see wasDeletedAccount). A desktop app's
 * session cannot delete the account (docs/api.md "Security model").
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { deletedAccounts, deletionTombstones, openCheckouts, users } from '../../db/schema.ts';
import type { PaymentProvider } from '../billing/payment-provider.ts';
import { tombstoneHashes } from '../accounts/accounts.ts';
import { MAIL_QUEUE, oweCustomerMessage } from '../customer-messages.ts';
import { failures, retryingConflicts } from '../errors.ts';
import type { JobSender } from '../jobs.ts';
import type { SignedIn } from '../accounts/sessions.ts';
import { removeAccountKeys } from '../devices/peer-access.ts';
import { keepNoticeAddress } from './notice-addresses.ts';
import { keepRefundsForDeletion } from '../billing/refunds.ts';
import { findUnendedSubscriptions } from '../billing/subscriptions.ts';
import { sha256 } from '../tokens.ts';

/** How long a deleted account's user id hash is kept: Stripe keeps (and can resend) events for 30 days. */
export const DELETED_ACCOUNT_MEMORY_MS = 30 * 86_400_000;

/**
 * Whether `userId` named an account deleted here (remembered 30 days), as opposed to one not known yet: a subscription created for it is cancelled and refunded rather than deferred until Stripe gives up.
 */
export async function wasDeletedAccount(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select().from(deletedAccounts).where(eq(deletedAccounts.userIdHash, sha256(userId)));
  return Boolean(row);
}

/** The account's checkout still payable at the provider is closed, so nothing can be paid once it is gone. */
async function closeOpenCheckout(db: Db, payments: PaymentProvider, userId: string, now: Date): Promise<void> {
  const [open] = await db
    .select()
    .from(openCheckouts)
    .where(and(eq(openCheckouts.userId, userId), eq(openCheckouts.provider, payments.kind), gt(openCheckouts.expiresAt, now)));
  if (!open) return;
  try {
    await payments.expireCheckout(open.checkoutId);
  } catch (error) {
    throw failures.providerFailed('Your open checkout could not be closed, so nothing was deleted. Please try again.', error);
  }
}

/** Deletes the account of `signedIn` (the caller's authenticated session) if `request` names that very account. */
export async function deleteAccount(
  db: Db,
  payments: PaymentProvider,
  jobs: JobSender,
  { user, session }: SignedIn,
  request: { email: string; userId: string },
): Promise<void> {
  if (session.kind !== 'web') throw failures.websiteOnly();
  if (user.id !== request.userId || user.email.toLowerCase() !== request.email.trim().toLowerCase()) {
    throw failures.accountMismatch();
  }

  await deleteAccountOf(db, payments, jobs, user);
}

/**
 * Deletes `user`'s account (the customer's own deletion, or support's): `alsoInTransaction` runs inside
 * the deleting transaction (the staff audit row), so it exists exactly when the deletion does.
 */
export async function deleteAccountOf(
  db: Db,
  payments: PaymentProvider,
  jobs: JobSender,
  user: { id: string; identitySubject: string; email: string; name: string },
  alsoInTransaction?: (tx: Db) => Promise<void>,
): Promise<void> {
  const now = new Date();
  // First no new payment (a checkout paid in the meantime is caught by wasDeletedAccount), then every
  // subscription of the account not yet ended ends, so none keeps billing once the account is gone.
  await closeOpenCheckout(db, payments, user.id, now);
  const ended = new Set<string>();
  for (let attempt = 1; ; attempt += 1) {
    await endSubscriptions(db, payments, user.id, ended);
    if (await deleteIfNothingLeft(db, jobs, user, ended, now, alsoInTransaction)) return;
    // A subscription was stored meanwhile (its webhook raced the deletion): end it too, then try again.
    if (attempt === 3) throw failures.providerFailed('Your subscription changed while deleting, so nothing was deleted. Please try again.', null);
  }
}

/**
 * Deletes the account in one transaction unless a subscription not yet ended (not in `ended`) is stored
 * for it; then nothing is written and the caller ends it first. The account row is locked before that
 * reading: a webhook storing a subscription for the account (its foreign-key check) waits until this
 * commits and then fails, so its retry finds the account deleted (wasDeletedAccount) and refunds it; no
 * subscription is ever cascaded away while still billing. Provider calls stay outside the transaction.
 *
 * Holding the account row while it writes to the account's other rows, it can meet a transaction that holds
 * one of those and waits for the account row (a refund job recording its result, which adds an activity line
 * for the account): PostgreSQL then aborts one of the two for the deadlock. When that is this one, it runs
 * again once the other has gone, rather than answering the customer 500 (seen in a test run, issue 50).
 */
async function deleteIfNothingLeft(
  db: Db,
  jobs: JobSender,
  user: { id: string; identitySubject: string; email: string; name: string },
  ended: Set<string>,
  now: Date,
  alsoInTransaction?: (tx: Db) => Promise<void>,
) {
  return retryingConflicts(() =>
    db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const unended = await findUnendedSubscriptions(tx, user.id);
      if (unended.some((subscription) => !ended.has(subscription.providerSubscriptionId))) return false;
      await tx
        .insert(deletionTombstones)
        .values(tombstoneHashes(user.identitySubject, user.email).map((subjectHash) => ({ subjectHash })))
        .onConflictDoUpdate({ target: deletionTombstones.subjectHash, set: { deletedAt: sql`now()` } });
      await tx.delete(deletedAccounts).where(lt(deletedAccounts.deletedAt, new Date(now.getTime() - DELETED_ACCOUNT_MEMORY_MS)));
      await tx.insert(deletedAccounts).values({ userIdHash: sha256(user.id), deletedAt: now }).onConflictDoNothing();
      // The last e-mail goes to the address kept in a row of its own (the account row goes now), which the
      // job names and the mail worker deletes once it is sent: no job holds an address (issue 31).
      const to = { email: user.email, name: user.name };
      await oweCustomerMessage(tx, jobs, { noticeId: await keepNoticeAddress(tx, to), kind: 'account_deleted', deletedAt: now.toISOString() }, user.id);
      // A refund's notice owed but not sent yet (the refund was just made) goes to the address it had: the
      // policy promises a notice of every refund. Other owed messages (reminders) are dropped below.
      await jobs.readdressOwed(tx, MAIL_QUEUE, user.id, ['refund', 'refund_failed'], async () => ({ noticeId: await keepNoticeAddress(tx, to) }));
      // A refund still owed, or made and able to fail, keeps the address its notice goes to; the refunds
      // kept as accounting records lose the provider's ids that lead back to the customer (issue 31).
      await keepRefundsForDeletion(tx, jobs, user.id, to, now);
      // The account's e-mails, sent or still owed, leave the job queue with the account (issue 31).
      await jobs.forgetAccountJobs(tx, MAIL_QUEUE, user.id);
      // Its WireGuard keys leave the peer list and free their addresses (issue 29).
      await removeAccountKeys(tx, user.id, now);
      // Sessions, hand-off tokens, the subscriptions and checkout sessions go with it (ON DELETE CASCADE).
      await tx.delete(users).where(eq(users.id, user.id));
      await alsoInTransaction?.(tx);
      return true;
    }),
  );
}

/** Ends at the provider every subscription of the account not yet cancelled (and not in `ended` already). */
async function endSubscriptions(db: Db, payments: PaymentProvider, userId: string, ended: Set<string>): Promise<void> {
  for (const subscription of await findUnendedSubscriptions(db, userId)) {
    if (ended.has(subscription.providerSubscriptionId)) continue;
    try {
      await payments.cancelImmediately(subscription.providerSubscriptionId);
    } catch (error) {
      throw failures.providerFailed('Your subscription could not be cancelled, so nothing was deleted. Please try again.', error);
    }
    ended.add(subscription.providerSubscriptionId);
  }
}

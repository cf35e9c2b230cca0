/**
 * Account deletion (design §7): only with a live session of that very account; the provider subscription
 * is ended first (if that fails nothing is deleted), then the account and everything hanging off it go in
 * one transaction, leaving only a tombstone: hashes of the identity subject and of the e-mail address, for
 * the cool-down. A desktop app's session cannot delete the account (docs/api.md "Security model").
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { deletionTombstones, users } from '../db/schema.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { tombstoneHashes } from './accounts.ts';
import { failures } from './errors.ts';
import { authenticate } from './sessions.ts';
import { findUnendedSubscriptions } from './subscriptions.ts';

export async function deleteAccount(
  db: Db,
  payments: PaymentProvider,
  request: { email: string; userId: string; sessionToken: string },
): Promise<void> {
  const { user, session } = await authenticate(db, request.sessionToken);
  if (session.kind !== 'web') throw failures.websiteOnly();
  if (user.id !== request.userId || user.email.toLowerCase() !== request.email.trim().toLowerCase()) {
    throw failures.accountMismatch();
  }

  // Every subscription of the account not yet ended ends, so none keeps billing once the account is gone.
  for (const subscription of await findUnendedSubscriptions(db, user.id)) {
    try {
      await payments.cancelImmediately(subscription.providerSubscriptionId);
    } catch (error) {
      throw failures.providerFailed('Your subscription could not be cancelled, so nothing was deleted. Please try again.', error);
    }
  }

  await db.transaction(async (tx) => {
    await tx
      .insert(deletionTombstones)
      .values(tombstoneHashes(user.identitySubject, user.email).map((subjectHash) => ({ subjectHash })))
      .onConflictDoUpdate({ target: deletionTombstones.subjectHash, set: { deletedAt: sql`now()` } });
    // Sessions, hand-off tokens, the subscription and checkout sessions go with it (ON DELETE CASCADE).
    await tx.delete(users).where(eq(users.id, user.id));
  });
}

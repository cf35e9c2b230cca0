/**
 * Where a customer updates the card and settles what is owed (issue 20, item 5): Stripe's Billing
 * Portal, or the local checkout's own page, whose unguessable link (an hour) is the credential, as a
 * checkout's is.
 */
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { localPortalSessions, users } from '../../db/schema.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { accountOfIdentity, type VerifiedIdentity } from '../accounts/accounts.ts';
import { ApiFailure, failures } from '../errors.ts';
import { findSubscription } from './subscriptions.ts';
import { newId } from '../tokens.ts';

const PORTAL_LIFETIME_MS = 3600_000;

/** The portal's address for the account of a verified identity; an account that never paid has none. */
export async function openBillingPortal(db: Db, payments: PaymentProvider, identity: Pick<VerifiedIdentity, 'subject'>): Promise<string> {
  const user = await accountOfIdentity(db, identity);
  if (!(await findSubscription(db, user.id))) throw failures.noSubscription();
  try {
    return await payments.openBillingPortal({ userId: user.id, customerId: user.paymentCustomerId });
  } catch (error) {
    if (error instanceof ApiFailure) throw error;
    throw failures.providerFailed('Failed to open the billing portal', error);
  }
}

export async function createLocalPortalSession(db: Db, userId: string, now = new Date()): Promise<string> {
  const id = newId('bps_local');
  await db.insert(localPortalSessions).values({ id, userId, expiresAt: new Date(now.getTime() + PORTAL_LIFETIME_MS) });
  return id;
}

/** The account behind a local portal link still valid at `now`. */
export async function findLocalPortalSession(db: Db, id: string, now = new Date()) {
  const [row] = await db
    .select({ userId: localPortalSessions.userId, email: users.email })
    .from(localPortalSessions)
    .innerJoin(users, eq(users.id, localPortalSessions.userId))
    .where(and(eq(localPortalSessions.id, id), gt(localPortalSessions.expiresAt, now)));
  return row ?? null;
}

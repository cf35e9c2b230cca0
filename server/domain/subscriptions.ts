/**
 * Subscription state as the payment provider reports it (design §7: webhooks are the only source, never
 * the browser reaching /success). Events older than the state applied are ignored.
 */
import { eq } from 'drizzle-orm';
import type { Subscription } from '../../contract/api.ts';
import type { Db } from '../db/database.ts';
import { subscriptions } from '../db/schema.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Provider status -> ours: active, inactive, past_due, cancelled. */
export function mapProviderStatus(status: string): 'active' | 'inactive' | 'past_due' | 'cancelled' {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'cancelled':
      return 'cancelled';
    default:
      return 'inactive';
  }
}

export function toApiSubscription(row: SubscriptionRow | undefined | null): Subscription | null {
  if (!row) return null;
  return {
    status: row.status,
    ...(row.plan ? { plan: row.plan } : {}),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    ...(row.currentPeriodEnd ? { endDate: row.currentPeriodEnd.toISOString() } : {}),
  };
}

export async function findSubscription(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row;
}

export interface ProviderSubscriptionState {
  userId: string;
  provider: 'stripe' | 'local';
  providerSubscriptionId: string;
  providerStatus: string;
  plan: string | null;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  /** The provider's time of this state (event `created`, seconds). */
  providerTime: number;
}

/** Applies a provider state unless a newer one is already stored. Returns whether it was applied. */
export async function applySubscriptionState(db: Db, state: ProviderSubscriptionState): Promise<boolean> {
  const values = {
    userId: state.userId,
    provider: state.provider,
    providerSubscriptionId: state.providerSubscriptionId,
    status: mapProviderStatus(state.providerStatus),
    plan: state.plan,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    currentPeriodEnd: state.currentPeriodEnd,
    providerUpdatedAt: state.providerTime,
    updatedAt: new Date(),
  };
  const current = await findSubscription(db, state.userId);
  if (!current) {
    await db.insert(subscriptions).values(values);
    return true;
  }
  // A later subscription (e.g. bought again after cancellation) replaces the old one whatever its time.
  const sameSubscription = current.providerSubscriptionId === state.providerSubscriptionId;
  if (sameSubscription && state.providerTime < current.providerUpdatedAt) return false;
  if (!sameSubscription && current.status === 'active' && mapProviderStatus(state.providerStatus) !== 'active') return false;
  await db.update(subscriptions).set(values).where(eq(subscriptions.userId, state.userId));
  return true;
}

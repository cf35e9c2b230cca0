/**
 * The payment-event handler both providers feed (design §7): each event id is recorded once in the
 * ledger, in the same transaction as its effect, so a duplicate changes nothing and a failure leaves no
 * trace (the provider retries). Stale events are ignored by the subscription state's own time.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { openCheckouts, paymentEvents, users } from '../db/schema.ts';
import { applySubscriptionState, type ProviderEffects } from '../domain/subscriptions.ts';
import { readSubscriptionObject } from './subscription-object.ts';

/** The part of a Stripe event we read; the local checkout emits the same shape. */
export const paymentEventSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type PaymentEvent = z.infer<typeof paymentEventSchema>;

const checkoutSessionSchema = z.object({
  id: z.string(),
  client_reference_id: z.string().nullish(),
  customer: z.string().nullish(),
});

export type EventOutcome = 'applied' | 'duplicate' | 'ignored' | 'second_subscription_cancelled' | 'deferred';

/** An event that cannot be applied yet: its transaction is rolled back, so its id is not recorded. */
class NotYetApplicable extends Error {}

export async function handlePaymentEvent(
  db: Db,
  event: PaymentEvent,
  provider: 'stripe' | 'local',
  effects: ProviderEffects = {},
): Promise<EventOutcome> {
  try {
    return await db.transaction(async (tx) => {
      const recorded = await tx
        .insert(paymentEvents)
        .values({ id: event.id, type: event.type, providerCreated: event.created })
        .onConflictDoNothing({ target: paymentEvents.id })
        .returning({ id: paymentEvents.id });
      if (recorded.length === 0) return 'duplicate';
      return applyEvent(tx as unknown as Db, event, provider, effects);
    });
  } catch (error) {
    // Not recorded as processed, so the provider's retry (or a resend) applies it once the customer is known.
    if (error instanceof NotYetApplicable) return 'deferred';
    throw error;
  }
}

async function applyEvent(db: Db, event: PaymentEvent, provider: 'stripe' | 'local', effects: ProviderEffects): Promise<EventOutcome> {
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.expired') {
    const session = checkoutSessionSchema.safeParse(event.data.object);
    if (!session.success || !session.data.client_reference_id) return 'ignored';
    const userId = session.data.client_reference_id;
    // A finished checkout is no longer offered again.
    await db.delete(openCheckouts).where(eq(openCheckouts.checkoutId, session.data.id));
    if (event.type === 'checkout.session.expired' || !session.data.customer) return 'applied';
    // One customer per account: the first one stored stays.
    await db
      .update(users)
      .set({ paymentCustomerId: session.data.customer })
      .where(and(eq(users.id, userId), isNull(users.paymentCustomerId)));
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
    return user ? 'applied' : 'ignored';
  }

  if (event.type.startsWith('customer.subscription.')) {
    const subscription = readSubscriptionObject(event.data.object);
    if (!subscription) return 'ignored';
    const userId = await resolveUser(db, subscription.userId, subscription.customer);
    if (!userId) {
      // Ending a subscription nobody here holds changes nothing (e.g. after the account was deleted).
      if (event.type === 'customer.subscription.deleted') return 'ignored';
      throw new NotYetApplicable();
    }
    return applySubscriptionState(
      db,
      {
        userId,
        provider,
        providerSubscriptionId: subscription.id,
        providerStatus: event.type === 'customer.subscription.deleted' ? 'canceled' : subscription.providerStatus,
        plan: subscription.plan,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
        currentPeriodEnd: subscription.currentPeriodEnd,
        providerTime: event.created,
      },
      effects,
    );
  }

  return 'ignored';
}

async function resolveUser(db: Db, metadataUserId: string | null, customer: string | null) {
  if (metadataUserId) {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, metadataUserId));
    if (user) return user.id;
  }
  if (customer) {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.paymentCustomerId, customer));
    if (user) return user.id;
  }
  return null;
}

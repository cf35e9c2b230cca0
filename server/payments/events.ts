/**
 * The payment-event handler both providers feed (design §7): each event id is recorded once in the
 * ledger, in the same transaction as its effect, so a duplicate changes nothing and a failure leaves no
 * trace (the provider retries). Stale events are ignored by the subscription state's own time.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { paymentEvents, users } from '../db/schema.ts';
import { applySubscriptionState } from '../domain/subscriptions.ts';

/** The part of a Stripe event we read; the local checkout emits the same shape. */
export const paymentEventSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type PaymentEvent = z.infer<typeof paymentEventSchema>;

const checkoutSessionSchema = z.object({
  client_reference_id: z.string().nullish(),
  customer: z.string().nullish(),
});

const subscriptionSchema = z.object({
  id: z.string(),
  customer: z.string().nullish(),
  status: z.string(),
  cancel_at_period_end: z.boolean().default(false),
  // Older API versions put the period end on the subscription, newer ones on its items.
  current_period_end: z.number().nullish(),
  items: z
    .object({
      data: z.array(z.object({ current_period_end: z.number().nullish(), price: z.object({ nickname: z.string().nullish() }).nullish() })),
    })
    .nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

export async function handlePaymentEvent(db: Db, event: PaymentEvent, provider: 'stripe' | 'local'): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(paymentEvents)
      .values({ id: event.id, type: event.type, providerCreated: event.created })
      .onConflictDoNothing({ target: paymentEvents.id })
      .returning({ id: paymentEvents.id });
    if (recorded.length === 0) return 'duplicate';
    return applyEvent(tx as unknown as Db, event, provider);
  });
}

async function applyEvent(db: Db, event: PaymentEvent, provider: 'stripe' | 'local'): Promise<EventOutcome> {
  if (event.type === 'checkout.session.completed') {
    const session = checkoutSessionSchema.safeParse(event.data.object);
    if (!session.success || !session.data.client_reference_id || !session.data.customer) return 'ignored';
    const updated = await db
      .update(users)
      .set({ paymentCustomerId: session.data.customer })
      .where(eq(users.id, session.data.client_reference_id))
      .returning({ id: users.id });
    return updated.length ? 'applied' : 'ignored';
  }

  if (event.type.startsWith('customer.subscription.')) {
    const parsed = subscriptionSchema.safeParse(event.data.object);
    if (!parsed.success) return 'ignored';
    const subscription = parsed.data;
    const userId = await resolveUser(db, subscription.metadata?.userId, subscription.customer);
    if (!userId) return 'ignored'; // the account was deleted, or never ours
    const periodEnd = subscription.current_period_end ?? subscription.items?.data[0]?.current_period_end ?? null;
    const applied = await applySubscriptionState(db, {
      userId,
      provider,
      providerSubscriptionId: subscription.id,
      providerStatus: event.type === 'customer.subscription.deleted' ? 'canceled' : subscription.status,
      plan: subscription.items?.data[0]?.price?.nickname ?? null,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
      providerTime: event.created,
    });
    return applied ? 'applied' : 'ignored';
  }

  return 'ignored';
}

async function resolveUser(db: Db, metadataUserId: string | undefined, customer: string | null | undefined) {
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

/**
 * The payment events both providers feed (design §7), read into what they mean here; the ledger and the
 * state changes are the domain's (server/domain/payment-events.ts). Stale events are ignored by the
 * subscription state's own time.
 */
import { z } from 'zod';
import { recordPaymentEvent, type EventOutcome, type PaymentEventEffect } from '../domain/payment-events.ts';
import type { Db } from '../domain/store.ts';
import type { ProviderEffects } from '../domain/subscriptions.ts';
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

/**
 * Applies one provider event: the event is translated into what it means here (a checkout ended, a
 * subscription's new state) and recorded with its effect in the ledger (server/domain/payment-events.ts).
 */
export function handlePaymentEvent(
  db: Db,
  event: PaymentEvent,
  provider: 'stripe' | 'local',
  effects: ProviderEffects,
): Promise<EventOutcome> {
  return recordPaymentEvent(db, event, translateEvent(event, provider), effects);
}

function translateEvent(event: PaymentEvent, provider: 'stripe' | 'local'): PaymentEventEffect {
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.expired') {
    const session = checkoutSessionSchema.safeParse(event.data.object);
    if (!session.success || !session.data.client_reference_id) return { kind: 'none' };
    const completed = event.type === 'checkout.session.completed';
    return {
      kind: 'checkout.ended',
      checkoutId: session.data.id,
      userId: session.data.client_reference_id,
      customer: (completed && session.data.customer) || null,
    };
  }

  if (event.type.startsWith('customer.subscription.')) {
    const subscription = readSubscriptionObject(event.data.object);
    if (!subscription) return { kind: 'none' };
    const deleted = event.type === 'customer.subscription.deleted';
    return {
      kind: 'subscription.state',
      userHint: subscription.userId,
      customer: subscription.customer,
      deleted,
      state: {
        provider,
        providerSubscriptionId: subscription.id,
        providerStatus: deleted ? 'canceled' : subscription.providerStatus,
        plan: subscription.plan,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
        currentPeriodEnd: subscription.currentPeriodEnd,
        providerTime: event.created,
      },
    };
  }

  return { kind: 'none' };
}

/**
 * A provider subscription object (Stripe's shape; the local checkout emits the same) read into the few
 * facts the API keeps. Shared by the webhook handler and by the answers of the provider's own API.
 */
import { z } from 'zod';
import type { SubscriptionSnapshot } from '../domain/billing/payment-provider.ts';

const subscriptionObjectSchema = z.object({
  id: z.string().min(1),
  customer: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  status: z.string(),
  cancel_at_period_end: z.boolean().nullish(),
  // A cancellation at a set time (Stripe's `cancel_at`) ends it just as surely as one at the period end.
  cancel_at: z.number().nullish(),
  // Older API versions put the period end on the subscription, newer ones on its items.
  current_period_end: z.number().nullish(),
  items: z
    .object({
      data: z.array(
        z.object({
          current_period_end: z.number().nullish(),
          price: z
            .object({ id: z.string().nullish(), nickname: z.string().nullish(), product: z.union([z.string(), z.object({ id: z.string() })]).nullish() })
            .nullish(),
        }),
      ),
    })
    .nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

export function readSubscriptionObject(object: unknown): SubscriptionSnapshot | null {
  const parsed = subscriptionObjectSchema.safeParse(object);
  if (!parsed.success) return null;
  const subscription = parsed.data;
  const periodEnd = subscription.current_period_end ?? subscription.items?.data[0]?.current_period_end ?? null;
  const end = subscription.cancel_at ?? periodEnd;
  return {
    id: subscription.id,
    customer: typeof subscription.customer === 'string' ? subscription.customer : (subscription.customer?.id ?? null),
    userId: subscription.metadata?.userId ?? null,
    providerStatus: subscription.status,
    plan: subscription.items?.data[0]?.price?.nickname ?? null,
    priceId: subscription.items?.data[0]?.price?.id ?? null,
    productId: idOf(subscription.items?.data[0]?.price?.product),
    cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end) || subscription.cancel_at != null,
    currentPeriodEnd: end ? new Date(end * 1000) : null,
  };
}

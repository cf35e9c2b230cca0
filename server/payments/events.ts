/**
 * The payment events both providers feed (design §7), read into what they mean here; the ledger and the
 * state changes are the domain's (server/domain/billing/payment-events.ts). Stale events are ignored by the
 * subscription state's own time.
 */
import { z } from 'zod';
import { PLAN } from '../../contract/plans.ts';
import { brandForServer } from '../brand.ts';
import { recordPaymentEvent, type EventOutcome, type PaymentEventEffect } from '../domain/billing/payment-events.ts';
import type { Db } from '../domain/store.ts';
import { REFUND_KEY_METADATA } from '../domain/billing/payment-provider.ts';
import type { ProviderEffects } from '../domain/billing/subscriptions.ts';
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
 * subscription's new state) and recorded with its effect in the ledger (server/domain/billing/payment-events.ts).
 */
function handlePaymentEvent(
  db: Db,
  event: PaymentEvent,
  provider: 'stripe' | 'local',
  effects: ProviderEffects,
  plan: PlanIdentity | null = null,
): Promise<EventOutcome> {
  return recordPaymentEvent(db, event, translateEvent(event, provider, plan), effects);
}

/** The VPN plan at Stripe: its configured price, and that price's product (any price of it is the plan). */
interface PlanIdentity {
  priceId: string;
  productId: string | null;
}

/** `handlePaymentEvent` bound to the database: what the webhook receiver is handed (never `db` itself). */
export type PaymentEventHandler = (
  event: PaymentEvent,
  provider: 'stripe' | 'local',
  effects: ProviderEffects,
  plan?: PlanIdentity | null,
) => Promise<EventOutcome>;

export const bindPaymentEvents =
  (db: Db): PaymentEventHandler =>
  (event, provider, effects, plan) =>
    handlePaymentEvent(db, event, provider, effects, plan);

/**
 * Whether a price is the VPN plan's (issue 20, item 6): another product sold on the same Stripe account
 * neither grants VPN access nor is cancelled or refunded here. Another price of the plan's product is the
 * plan (issue 34: a Billing Portal plan switch, a price migration). Unknown prices (the local checkout's,
 * or an object without one) count.
 */
function isPlanPrice(plan: PlanIdentity | null, price: { priceId: string | null; productId: string | null }): boolean {
  if (!plan || !price.priceId || price.priceId === plan.priceId) return true;
  return Boolean(price.productId && plan.productId && price.productId === plan.productId);
}

function translateEvent(event: PaymentEvent, provider: 'stripe' | 'local', plan: PlanIdentity | null): PaymentEventEffect {
  if (event.type === 'customer.deleted') {
    const id = event.data.object.id;
    return typeof id === 'string' && id ? { kind: 'customer.deleted', customer: id } : { kind: 'none' };
  }
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

  if (event.type === 'charge.refunded') return translateRefundedCharge(event);
  if (REFUND_STATUS_EVENTS.has(event.type)) return translateRefundStatus(event);
  if (event.type.startsWith('charge.dispute.')) return translateDispute(event);

  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    if (!isPlanPrice(plan, invoicePrice(event.data.object))) return { kind: 'none' };
    return event.type === 'invoice.paid' ? translatePaidInvoice(event, provider) : translateFailedInvoice(event, provider);
  }

  if (event.type.startsWith('customer.subscription.')) {
    const subscription = readSubscriptionObject(event.data.object);
    if (!subscription || !isPlanPrice(plan, subscription)) return { kind: 'none' };
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

/** Stripe's invoice (any API version: the subscription moved under `parent` in 2025), as far as a receipt needs it. */
const invoiceSchema = z.object({
  id: z.string().min(1),
  customer: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  amount_paid: z.number().int().nullish(),
  amount_due: z.number().int().nullish(),
  currency: z.string(),
  hosted_invoice_url: z.string().nullish(),
  created: z.number().int().nullish(),
  status_transitions: z.object({ paid_at: z.number().int().nullish() }).nullish(),
  subscription: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  // The payment that paid it: `payment_intent` in older API versions; `payments` in newer ones, when included.
  payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  payments: z
    .object({ data: z.array(z.object({ status: z.string().nullish(), payment: z.object({ payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullish() }).nullish() })) })
    .nullish(),
  parent: z
    .object({
      subscription_details: z
        .object({ subscription: z.union([z.string(), z.object({ id: z.string() })]).nullish(), metadata: z.record(z.string(), z.string()).nullish() })
        .nullish(),
    })
    .nullish(),
  lines: z
    .object({
      data: z.array(
        z.object({
          period: z.object({ end: z.number().int() }).nullish(),
          // The line's price: `price` in older API versions, `pricing.price_details` in newer ones.
          price: z.object({ id: z.string(), product: z.union([z.string(), z.object({ id: z.string() })]).nullish() }).nullish(),
          pricing: z
            .object({ price_details: z.object({ price: z.union([z.string(), z.object({ id: z.string() })]), product: z.string().nullish() }).nullish() })
            .nullish(),
        }),
      ),
    })
    .nullish(),
});

function invoicePrice(object: unknown): { priceId: string | null; productId: string | null } {
  const line = invoiceSchema.safeParse(object).data?.lines?.data[0];
  return {
    priceId: line?.price?.id ?? idOf(line?.pricing?.price_details?.price) ?? null,
    productId: idOf(line?.price?.product) ?? line?.pricing?.price_details?.product ?? null,
  };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

type Invoice = z.infer<typeof invoiceSchema>;

/** Whom an invoice concerns: the account named at checkout, the provider's customer and subscription. */
function invoiceParties(invoice: Invoice) {
  const details = invoice.parent?.subscription_details;
  return {
    userHint: details?.metadata?.userId ?? null,
    customer: idOf(invoice.customer),
    providerSubscriptionId: idOf(details?.subscription) ?? idOf(invoice.subscription),
  };
}

function translatePaidInvoice(event: PaymentEvent, provider: 'stripe' | 'local'): PaymentEventEffect {
  const parsed = invoiceSchema.safeParse(event.data.object);
  // A zero invoice (a trial, a full credit) is no payment.
  if (!parsed.success || !parsed.data.amount_paid || parsed.data.amount_paid <= 0) return { kind: 'none' };
  const invoice = parsed.data;
  const { userHint, customer, providerSubscriptionId } = invoiceParties(invoice);
  const paidAt = invoice.status_transitions?.paid_at ?? invoice.created ?? event.created;
  const periodEnd = invoice.lines?.data[0]?.period?.end;
  return {
    kind: 'charge.paid',
    userHint,
    customer,
    provider,
    charge: {
      id: invoice.id,
      providerSubscriptionId,
      amount: invoice.amount_paid ?? 0,
      currency: invoice.currency,
      paidAt: new Date(paidAt * 1000),
      description: `${brandForServer.planName}, 1 ${PLAN.interval}`,
      receiptUrl: invoice.hosted_invoice_url ?? null,
      nextRenewal: periodEnd ? new Date(periodEnd * 1000) : null,
      paymentIntent: paymentIntentOf(invoice),
    },
  };
}

/** The payment intent that paid an invoice, when its payload says (else the provider is asked: payment-events.ts). */
function paymentIntentOf(invoice: Invoice): string | null {
  const paid = invoice.payments?.data.find((payment) => (!payment.status || payment.status === 'paid') && payment.payment?.payment_intent);
  return idOf(invoice.payment_intent) ?? idOf(paid?.payment?.payment_intent);
}

/** A renewal the card declined: the customer is owed a "payment failed" e-mail (the state comes as its own event). */
function translateFailedInvoice(event: PaymentEvent, provider: 'stripe' | 'local'): PaymentEventEffect {
  const parsed = invoiceSchema.safeParse(event.data.object);
  if (!parsed.success || !parsed.data.amount_due) return { kind: 'none' };
  const invoice = parsed.data;
  const { userHint, customer, providerSubscriptionId } = invoiceParties(invoice);
  return {
    kind: 'charge.failed',
    userHint,
    customer,
    provider,
    failure: {
      invoiceId: invoice.id,
      providerSubscriptionId,
      amount: invoice.amount_due ?? 0,
      currency: invoice.currency,
      failedAt: new Date(event.created * 1000),
    },
  };
}

const refundedChargeSchema = z.object({
  id: z.string().min(1),
  customer: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  amount_refunded: z.number().int(),
  currency: z.string(),
  receipt_url: z.string().nullish(),
});

/** A refund Stripe made (ours, or one made in the Dashboard): the billing history shows it with Stripe's receipt. */
function translateRefundedCharge(event: PaymentEvent): PaymentEventEffect {
  const parsed = refundedChargeSchema.safeParse(event.data.object);
  if (!parsed.success || parsed.data.amount_refunded <= 0) return { kind: 'none' };
  const charge = parsed.data;
  const customer = idOf(charge.customer);
  if (!customer) return { kind: 'none' };
  return {
    kind: 'charge.refunded',
    customer,
    refund: {
      id: charge.id,
      paymentIntent: idOf(charge.payment_intent),
      amount: charge.amount_refunded,
      currency: charge.currency,
      refundedAt: new Date(event.created * 1000),
      receiptUrl: charge.receipt_url ?? null,
    },
  };
}

/** Events carrying a refund object whose status may have changed after it was made. */
const REFUND_STATUS_EVENTS: ReadonlySet<string> = new Set(['refund.updated', 'refund.failed', 'charge.refund.updated']);

const refundObjectSchema = z.object({
  id: z.string().min(1),
  status: z.string().nullish(),
  failure_reason: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

/** A refund that succeeded or failed after it was made (a card that can no longer take it, a closed account). */
function translateRefundStatus(event: PaymentEvent): PaymentEventEffect {
  const parsed = refundObjectSchema.safeParse(event.data.object);
  if (!parsed.success) return { kind: 'none' };
  const { id, status, failure_reason: failureReason, metadata } = parsed.data;
  // Our refund job's key, when the refund is ours: matched by it before the job has stored the refund's id.
  const jobKey = metadata?.[REFUND_KEY_METADATA] ?? null;
  // `canceled` (a refund that required action and was not completed) returns no money either.
  const settled = status === 'failed' || status === 'canceled' ? 'failed' : status === 'succeeded' ? 'succeeded' : null;
  if (event.type === 'refund.failed' || settled === 'failed') {
    return { kind: 'refund.status', refund: { refundId: id, jobKey, status: 'failed', failureReason: failureReason ?? status ?? null } };
  }
  return settled ? { kind: 'refund.status', refund: { refundId: id, jobKey, status: settled, failureReason: null } } : { kind: 'none' };
}

const disputeSchema = z.object({
  id: z.string().min(1),
  status: z.string().min(1),
  charge: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
});

/** A dispute opened, changed or closed (charge.dispute.*): no money-back claim while one is open. */
function translateDispute(event: PaymentEvent): PaymentEventEffect {
  const parsed = disputeSchema.safeParse(event.data.object);
  if (!parsed.success) return { kind: 'none' };
  const { id, status, charge, payment_intent: paymentIntent } = parsed.data;
  return { kind: 'dispute', dispute: { id, status, chargeId: idOf(charge), paymentIntent: idOf(paymentIntent), providerTime: event.created } };
}

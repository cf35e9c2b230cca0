/**
 * The local checkout's billing clock (issue 11, item 10): what a real billing system does at period end,
 * for subscriptions of the local provider. Renewal on: a new period (a year) and renewal still on;
 * renewal off: the subscription ends (`cancelled`). Each change is a Stripe-format event through the same
 * signed path as Stripe's webhooks. The clock runs on real time plus an offset that developers and tests
 * move forward, like a Stripe test clock; it never moves back.
 */
import { billingClockOffsetSeconds, moveBillingClockForward } from '../domain/billing-clock.ts';
import type { Db } from '../domain/store.ts';
import { findDueLocalSubscriptions } from '../domain/subscriptions.ts';
import { newId } from '../domain/tokens.ts';
import type { PaymentEvent } from './events.ts';

export type EventSink = (event: PaymentEvent) => Promise<unknown>;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function oneYearAfter(date: Date): Date {
  const end = new Date(date);
  end.setUTCFullYear(end.getUTCFullYear() + 1);
  return end;
}

export function localEvent(type: string, created: number, object: Record<string, unknown>): PaymentEvent {
  return { id: newId('evt_local'), type, created, data: { object } };
}

/** The plan's yearly charge, in cents (the local checkout charges what Stripe's price would). */
const LOCAL_PLAN_AMOUNT = 10_000;

/** The `invoice.paid` event of a local charge (the first payment or a renewal), in Stripe's shape. */
export function localInvoicePaid(subscriptionId: string, userId: string, paidAt: number, periodEnd: number): PaymentEvent {
  return localEvent('invoice.paid', paidAt, {
    id: newId('in_local'),
    object: 'invoice',
    amount_paid: LOCAL_PLAN_AMOUNT,
    currency: 'usd',
    status_transitions: { paid_at: paidAt },
    parent: { subscription_details: { subscription: subscriptionId, metadata: { userId } } },
    lines: { data: [{ period: { end: periodEnd } }] },
  });
}

/** The billing clock's time: real time plus how far it was moved. */
export async function billingClockNow(db: Db, real = new Date()): Promise<Date> {
  return new Date(real.getTime() + (await billingClockOffsetSeconds(db)) * 1000);
}

/** Moves the clock forward by `by` seconds and runs what fell due; answers the new time and what happened. */
export async function advanceBillingClock(db: Db, emit: EventSink, by: number) {
  await moveBillingClockForward(db, by);
  const now = await billingClockNow(db);
  return { now, ...(await runBillingCycle(db, emit, now)) };
}

/** Renews or ends every local subscription whose period has ended by `now`. */
export async function runBillingCycle(db: Db, emit: EventSink, now: Date): Promise<{ renewed: number; ended: number }> {
  const due = await findDueLocalSubscriptions(db, now);
  let renewed = 0;
  let ended = 0;
  for (const row of due) {
    let end = row.currentPeriodEnd!;
    // Each change happens at the period end it belongs to, and later than anything applied before.
    let created = row.providerUpdatedAt;
    const at = (date: Date) => (created = Math.max(seconds(date), created + 1));
    const object = { id: row.providerSubscriptionId, metadata: { userId: row.userId } };
    if (row.cancelAtPeriodEnd) {
      await emit(
        localEvent('customer.subscription.deleted', at(end), {
          ...object,
          status: 'canceled',
          cancel_at_period_end: true,
          current_period_end: seconds(end),
        }),
      );
      ended += 1;
      continue;
    }
    while (end.getTime() <= now.getTime()) {
      const next = oneYearAfter(end);
      await emit(
        localEvent('customer.subscription.updated', at(end), {
          ...object,
          status: 'active',
          cancel_at_period_end: false,
          current_period_end: seconds(next),
        }),
      );
      await emit(localInvoicePaid(row.providerSubscriptionId, row.userId, created, seconds(next)));
      end = next;
      renewed += 1;
    }
  }
  return { renewed, ended };
}

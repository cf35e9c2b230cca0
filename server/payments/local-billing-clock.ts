/**
 * The local checkout's billing clock (issue 11, item 10): what a real billing system does at period end,
 * for subscriptions of the local provider. Renewal on: a new period (the plan's interval) and renewal still on;
 * renewal off: the subscription ends (`cancelled`). Each change is a Stripe-format event through the same
 * signed path as Stripe's webhooks. The clock runs on real time plus an offset that developers and tests
 * move forward, like a Stripe test clock; it never moves back.
 */
import { PLAN } from '../../contract/plans.ts';
import { billingClockOffsetSeconds, moveBillingClockForward } from '../domain/billing/billing-clock.ts';
import type { Db } from '../domain/store.ts';
import { subscriptionStart } from '../domain/billing/charges.ts';
import { findDueLocalSubscriptions } from '../domain/billing/subscriptions.ts';
import { newId } from '../domain/tokens.ts';
import type { PaymentEvent } from './events.ts';
import { PAST_DUE_DAYS } from '../../contract/limits.ts';

export type EventSink = (event: PaymentEvent) => Promise<unknown>;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The plan's billing period in calendar months. */
const PERIOD_MONTHS = PLAN.interval === 'year' ? 12 : 1;

/**
 * `periods` billing periods after `anchor`, keeping its day of the month where the month has it:
 * 29 February renews on 28 February in other years, and on 29 February again in the next leap year
 * (issue 20, item 8); the 31st renews on the last day of a shorter month.
 */
function periodsAfter(anchor: Date, periods: number): Date {
  const months = anchor.getUTCMonth() + periods * PERIOD_MONTHS;
  const year = anchor.getUTCFullYear() + Math.floor(months / 12);
  const month = months % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(anchor);
  date.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return date;
}

export function onePeriodAfter(date: Date): Date {
  return periodsAfter(date, 1);
}

/** The first renewal date of a plan started at `anchor` after `date`. */
function renewalAfter(anchor: Date, date: Date): Date {
  const monthsBetween = (date.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + date.getUTCMonth() - anchor.getUTCMonth();
  let periods = Math.max(1, Math.floor(monthsBetween / PERIOD_MONTHS));
  while (periodsAfter(anchor, periods).getTime() <= date.getTime()) periods += 1;
  return periodsAfter(anchor, periods);
}

/**
 * How long a declined renewal stays `past_due` before the local clock ends the subscription, as Stripe
 * does once its retries are over when told to cancel (docs/decisions.md).
 */
const PAST_DUE_LIMIT_MS = PAST_DUE_DAYS * 86_400_000;

export function localEvent(type: string, created: number, object: Record<string, unknown>): PaymentEvent {
  return { id: newId('evt_local'), type, created, data: { object } };
}


/** The `invoice.payment_failed` event of a declined local renewal, in Stripe's shape. */
function localInvoiceFailed(subscriptionId: string, userId: string, at: number, periodEnd: number): PaymentEvent {
  return localEvent('invoice.payment_failed', at, {
    id: newId('in_local'),
    object: 'invoice',
    amount_due: PLAN.amount,
    amount_paid: 0,
    currency: PLAN.currency,
    parent: { subscription_details: { subscription: subscriptionId, metadata: { userId } } },
    lines: { data: [{ period: { end: periodEnd } }] },
  });
}

/** The `invoice.paid` event of a local charge (the first payment or a renewal), in Stripe's shape. */
export function localInvoicePaid(subscriptionId: string, userId: string, paidAt: number, periodEnd: number): PaymentEvent {
  return localEvent('invoice.paid', paidAt, {
    id: newId('in_local'),
    object: 'invoice',
    // The local checkout charges what the provider's price would: the plan's amount.
    amount_paid: PLAN.amount,
    currency: PLAN.currency,
    status_transitions: { paid_at: paidAt },
    parent: { subscription_details: { subscription: subscriptionId, metadata: { userId } } },
    lines: { data: [{ period: { end: periodEnd } }] },
  });
}

/** The billing clock's time: real time plus how far it was moved. */
export async function billingClockNow(db: Db, real = new Date()): Promise<Date> {
  return new Date(real.getTime() + (await billingClockOffsetSeconds(db)) * 1000);
}

export interface BillingCycleOptions {
  /** Renewals that fall due in this run are declined (`npm run billing:advance -- 366d --decline`). */
  decline?: boolean;
}

export interface BillingCycleOutcome {
  renewed: number;
  ended: number;
  declined: number;
}

/** Moves the clock forward by `by` seconds and runs what fell due; answers the new time and what happened. */
export async function advanceBillingClock(db: Db, emit: EventSink, by: number, options: BillingCycleOptions = {}) {
  await moveBillingClockForward(db, by);
  const now = await billingClockNow(db);
  return { now, ...(await runBillingCycle(db, emit, now, options)) };
}

/**
 * Renews or ends every local subscription whose period has ended by `now`. A renewal is on the
 * subscription's anniversary (from its first payment); a declined one leaves it `past_due` with its
 * period end unchanged (settled through the billing portal page), and one past due for longer than
 * PAST_DUE_LIMIT_MS is ended.
 */
export async function runBillingCycle(db: Db, emit: EventSink, now: Date, options: BillingCycleOptions = {}): Promise<BillingCycleOutcome> {
  const due = await findDueLocalSubscriptions(db, now);
  const outcome: BillingCycleOutcome = { renewed: 0, ended: 0, declined: 0 };
  for (const row of due) {
    let end = row.currentPeriodEnd!;
    // Each change happens at the period end it belongs to, and later than anything applied before.
    let created = row.providerUpdatedAt;
    const at = (date: Date) => (created = Math.max(seconds(date), created + 1));
    const object = { id: row.providerSubscriptionId, metadata: { userId: row.userId } };
    const ending = (when: Date) =>
      localEvent('customer.subscription.deleted', at(when), {
        ...object,
        status: 'canceled',
        cancel_at_period_end: row.cancelAtPeriodEnd,
        current_period_end: seconds(end),
      });
    if (row.status === 'past_due') {
      // Never settled: it ends once the retries would be over.
      const limit = new Date(end.getTime() + PAST_DUE_LIMIT_MS);
      if (limit.getTime() <= now.getTime()) {
        await emit(ending(limit));
        outcome.ended += 1;
      }
      continue;
    }
    if (row.cancelAtPeriodEnd) {
      await emit(ending(end));
      outcome.ended += 1;
      continue;
    }
    const anchor = (await subscriptionStart(db, row.providerSubscriptionId)) ?? end;
    if (options.decline) {
      await emit(localInvoiceFailed(row.providerSubscriptionId, row.userId, at(end), seconds(renewalAfter(anchor, end))));
      await emit(
        localEvent('customer.subscription.updated', created, {
          ...object,
          status: 'past_due',
          cancel_at_period_end: false,
          current_period_end: seconds(end),
        }),
      );
      outcome.declined += 1;
      continue;
    }
    while (end.getTime() <= now.getTime()) {
      const next = renewalAfter(anchor, end);
      await emit(renewal(row.providerSubscriptionId, row.userId, at(end), next));
      await emit(localInvoicePaid(row.providerSubscriptionId, row.userId, created, seconds(next)));
      end = next;
      outcome.renewed += 1;
    }
  }
  return outcome;
}

/** The subscription's state after a paid renewal: active until `next`, renewal still on. */
function renewal(subscriptionId: string, userId: string, created: number, next: Date): PaymentEvent {
  return localEvent('customer.subscription.updated', created, {
    id: subscriptionId,
    metadata: { userId },
    status: 'active',
    cancel_at_period_end: false,
    current_period_end: seconds(next),
  });
}

/**
 * Settles a declined renewal (the local billing portal page): paid now, and the new period runs from the
 * original period end to the next anniversary, as if the renewal had gone through on time.
 */
export async function settlePastDue(db: Db, emit: EventSink, row: { providerSubscriptionId: string; userId: string; currentPeriodEnd: Date | null; providerUpdatedAt: number }) {
  const now = await billingClockNow(db);
  const end = row.currentPeriodEnd ?? now;
  const anchor = (await subscriptionStart(db, row.providerSubscriptionId)) ?? end;
  const next = renewalAfter(anchor, end);
  const created = Math.max(seconds(now), row.providerUpdatedAt + 1);
  await emit(localInvoicePaid(row.providerSubscriptionId, row.userId, created, seconds(next)));
  await emit(renewal(row.providerSubscriptionId, row.userId, created, next));
}

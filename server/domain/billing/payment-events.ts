/**
 * The payment-event ledger (design §7): each provider event id is recorded once, in the same transaction
 * as its effect, so a duplicate changes nothing and a failure leaves no trace (the provider retries).
 * server/payments/events.ts translates the provider's objects into the effects below.
 */
import type { Db } from '../../db/database.ts';
import { paymentEvents } from '../../db/schema.ts';
import { claimPaymentCustomer, findUserById, findUserIdByCustomer, forgetPaymentCustomer } from '../accounts/accounts.ts';
import { recordCharge, type FailedCharge, type PaidCharge } from './charges.ts';
import { oweCustomerMessage } from '../customer-messages.ts';
import { forgetOpenCheckout } from './checkouts.ts';
import { wasDeletedAccount } from '../privacy/deletion.ts';
import { accountOfPlanPayment, endAccessForLostDispute, mayBePlanPayment, recordDispute, type ProviderDispute } from './disputes.ts';
import { applyRefundStatus, oweRefund, recordProviderRefund, type ProviderRefund, type ProviderRefundStatus } from './refunds.ts';
import { syncPeerAccess } from '../devices/peer-access.ts';
import { applySubscriptionState, findSubscriptionByProviderId, type ProviderEffects, type ProviderSubscriptionState } from './subscriptions.ts';

/** What became of an event the provider is told about: the webhook answers each with 200 (its schema reads this list). */
export const ACKNOWLEDGED_OUTCOMES = [
  'applied',
  'duplicate',
  'ignored',
  'second_subscription_cancelled',
  'deleted_account_subscription_cancelled',
  'unlinkable',
  /** A refund made here failed for good (the alert: docs/operations.md). */
  'refund_failed',
] as const;
/** `deferred`: not recorded, answered with an error so the provider delivers the event again later. */
export type EventOutcome = (typeof ACKNOWLEDGED_OUTCOMES)[number] | 'deferred';

/** What one event means here, whatever the provider. */
export type PaymentEventEffect =
  /** A checkout ended (paid, or expired: then no customer); `customer` becomes the account's if it has none. */
  | { kind: 'checkout.ended'; checkoutId: string; userId: string; customer: string | null }
  /** A subscription's new state; its account is found by the user id it carries, else by its customer. */
  | {
      kind: 'subscription.state';
      userHint: string | null;
      customer: string | null;
      /** The subscription was deleted at the provider (nothing to defer if nobody here holds it). */
      deleted: boolean;
      state: Omit<ProviderSubscriptionState, 'userId'>;
    }
  /** A payment (an invoice paid): stored for the billing history, with its receipt e-mail owed. */
  | { kind: 'charge.paid'; userHint: string | null; customer: string | null; provider: 'stripe' | 'local'; charge: PaidCharge }
  /** The provider's customer was deleted (Stripe Dashboard): the account forgets it, so its next checkout makes a new one. */
  | { kind: 'customer.deleted'; customer: string }
  /** A refund the provider made (Stripe's `charge.refunded`), for the billing history. */
  | { kind: 'charge.refunded'; customer: string; refund: ProviderRefund }
  /** A refund's later status (Stripe's refund.updated, refund.failed, charge.refund.updated). */
  | { kind: 'refund.status'; refund: ProviderRefundStatus }
  /** A dispute of a charge opened, changed or closed (Stripe's charge.dispute.*). */
  | { kind: 'dispute'; dispute: ProviderDispute }
  /** A payment the card declined (a renewal): the customer is owed the "payment failed" e-mail. */
  | { kind: 'charge.failed'; userHint: string | null; customer: string | null; provider: 'stripe' | 'local'; failure: FailedCharge }
  /** An event we do not act on (still recorded, so it is not delivered again). */
  | { kind: 'none' };

export interface LedgerEntry {
  id: string;
  type: string;
  /** The provider's time of the event, in seconds. */
  created: number;
}

/** Provider statuses from which nothing can be charged again. */
const ENDED_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

/** An event that cannot be applied yet: its transaction is rolled back, so its id is not recorded. */
class NotYetApplicable extends Error {}

/**
 * How long an event naming no account we know is deferred (answered 409, so the provider delivers it
 * again): the checkout's own event links the customer within seconds. Older than this it never will (a
 * Payment Link, a Dashboard subscription): it is recorded as `unlinkable` and logged, not retried for
 * Stripe's three days.
 */
const UNLINKABLE_AFTER_SECONDS = 3600;

/**
 * A provider answer the event's effect needs and does not have yet: its transaction rolls back, the
 * provider is asked outside any transaction, and the event is applied again with the answer (issue 49,
 * item 2: no provider call inside the webhook's transaction, so a slow or failing provider holds no lock
 * and no connection; a failure leaves the event unrecorded, delivered again).
 */
class ProviderAnswerNeeded extends Error {
  constructor(readonly key: string, readonly ask: () => Promise<unknown>) {
    super(`provider answer needed: ${key.split(':')[0]}`);
  }
}

/** How often an event is applied again for another provider answer (each effect asks at most two). */
const MAX_PROVIDER_ROUNDS = 4;

/**
 * The provider calls of `effects` as the event's transaction sees them: an answer already fetched, or a
 * ProviderAnswerNeeded that ends the transaction so that the call is made outside it.
 */
function answeredOnly(effects: ProviderEffects, answers: Map<string, unknown>): ProviderEffects {
  const answered =
    <T>(kind: string, call: ((id: string) => Promise<T>) | undefined) =>
    call &&
    (async (id: string): Promise<T> => {
      const key = `${kind}:${id}`;
      if (answers.has(key)) return answers.get(key) as T;
      throw new ProviderAnswerNeeded(key, () => call(id));
    });
  const { fetchSubscription, fetchChargeCustomer, fetchInvoicePayment, ...rest } = effects;
  const subscription = answered('subscription', fetchSubscription);
  const chargeCustomer = answered('charge-customer', fetchChargeCustomer);
  // An invoice's payment Stripe does not answer is not known: the charge is stored without it (charge.paid).
  const invoicePayment = answered('invoice-payment', fetchInvoicePayment && ((id: string) => fetchInvoicePayment(id).catch(() => null)));
  return {
    ...rest,
    ...(subscription && { fetchSubscription: subscription }),
    ...(chargeCustomer && { fetchChargeCustomer: chargeCustomer }),
    ...(invoicePayment && { fetchInvoicePayment: invoicePayment }),
  };
}

export async function recordPaymentEvent(
  db: Db,
  entry: LedgerEntry,
  effect: PaymentEventEffect,
  effects: ProviderEffects,
  now = new Date(),
): Promise<EventOutcome> {
  // Read before the transaction: the local billing clock is a row of this database (PGlite has one connection).
  const billingNow = await effects.billingNow();
  const answers = new Map<string, unknown>();
  for (let round = 0; ; round += 1) {
    try {
      return await db.transaction(async (tx) => {
        const recorded = await tx
          .insert(paymentEvents)
          .values({ id: entry.id, type: entry.type, providerCreated: entry.created })
          .onConflictDoNothing({ target: paymentEvents.id })
          .returning({ id: paymentEvents.id });
        if (recorded.length === 0) return 'duplicate';
        return applyEffect(tx, effect, answeredOnly(effects, answers), billingNow);
      });
    } catch (error) {
      if (error instanceof ProviderAnswerNeeded && round < MAX_PROVIDER_ROUNDS) {
        // Outside the transaction, which has rolled back: a failure here is the event's (not recorded, retried).
        answers.set(error.key, await error.ask());
        continue;
      }
      // Not recorded as processed, so the provider's retry (or a resend) applies it once the customer is known.
      if (!(error instanceof NotYetApplicable)) throw error;
      if (now.getTime() / 1000 - entry.created < UNLINKABLE_AFTER_SECONDS) return 'deferred';
      await db.insert(paymentEvents).values({ id: entry.id, type: entry.type, providerCreated: entry.created }).onConflictDoNothing({ target: paymentEvents.id });
      return 'unlinkable';
    }
  }
}

async function applyEffect(db: Db, effect: PaymentEventEffect, effects: ProviderEffects, billingNow: Date): Promise<EventOutcome> {
  switch (effect.kind) {
    case 'none':
      return 'ignored';
    case 'checkout.ended': {
      await forgetOpenCheckout(db, effect.checkoutId);
      if (!effect.customer) return 'applied';
      // The account may be gone by now (deleted): then there is nothing to store.
      return (await claimPaymentCustomer(db, effect.userId, effect.customer)) ? 'applied' : 'ignored';
    }
    case 'charge.paid': {
      const holder = effect.charge.providerSubscriptionId ? await findSubscriptionByProviderId(db, effect.charge.providerSubscriptionId) : undefined;
      const userId = holder?.userId ?? (await resolveUser(db, effect.userHint, effect.customer));
      // Paid before its subscription's own event arrived, by a customer not known yet: delivered again later.
      if (!userId) throw new NotYetApplicable();
      // Stripe's invoice.paid names its payment only when included: asked, so a reported refund finds its charge.
      // Not known (Stripe did not answer): stored without it, and its refunds are matched by date and currency.
      const paymentIntent = effect.charge.paymentIntent ?? (await effects.fetchInvoicePayment?.(effect.charge.id)) ?? null;
      return (await recordCharge(db, effects.jobs, userId, effect.provider, { ...effect.charge, paymentIntent })) ? 'applied' : 'ignored';
    }
    case 'charge.refunded': {
      // Nobody here to show it to (an account deleted since): nothing to store. Another product's
      // payment on the same customer is not the plan's: not in the VPN history (issue 46, item 6).
      const userId = await findUserIdByCustomer(db, effect.customer);
      if (!userId || !(await mayBePlanPayment(db, userId, effect.refund.paymentIntent))) return 'ignored';
      await recordProviderRefund(db, userId, effect.refund);
      return 'applied';
    }
    case 'refund.status': {
      const outcome = await applyRefundStatus(db, effects.jobs, effect.refund);
      return outcome === 'failed' ? 'refund_failed' : outcome;
    }
    case 'dispute': {
      const { chargeId, paymentIntent } = effect.dispute;
      // A payment of the plan names its account; otherwise the charge's customer is asked of the provider,
      // and another product's payment of that customer is not ours (issue 46, item 6).
      let userId = paymentIntent ? await accountOfPlanPayment(db, paymentIntent) : null;
      if (!userId) {
        const customer = chargeId && effects.fetchChargeCustomer ? await effects.fetchChargeCustomer(chargeId) : null;
        const holder = customer ? await findUserIdByCustomer(db, customer) : null;
        if (holder && (await mayBePlanPayment(db, holder, paymentIntent))) userId = holder;
      }
      if (!userId) return 'ignored';
      const current = await recordDispute(db, userId, effect.dispute);
      // Lost: the customer has the money back; access ends and the plan does not renew (issue 46, item 2).
      if (current && effect.dispute.status === 'lost') await endAccessForLostDispute(db, effects.jobs, userId, paymentIntent, billingNow);
      return 'applied';
    }
    case 'customer.deleted':
      return (await forgetPaymentCustomer(db, effect.customer)) ? 'applied' : 'ignored';
    case 'charge.failed': {
      const holder = effect.failure.providerSubscriptionId ? await findSubscriptionByProviderId(db, effect.failure.providerSubscriptionId) : undefined;
      const userId = holder?.userId ?? (await resolveUser(db, effect.userHint, effect.customer));
      if (!userId) throw new NotYetApplicable();
      const { amount, currency, failedAt, invoiceId } = effect.failure;
      await oweCustomerMessage(db, effects.jobs, { kind: 'payment_failed', userId, amount, currency, failedAt: failedAt.toISOString() }, invoiceId);
      return 'applied';
    }
    case 'subscription.state': {
      const userId = await resolveUser(db, effect.userHint, effect.customer);
      if (!userId) {
        // Ending a subscription nobody here holds changes nothing (e.g. after the account was deleted).
        if (effect.deleted) return 'ignored';
        // Paid in a checkout left open when its account was deleted: nobody may keep paying for it.
        if (effect.userHint && (await wasDeletedAccount(db, effect.userHint))) return endOrphanedSubscription(db, effect.state, effects);
        throw new NotYetApplicable();
      }
      const outcome = await applySubscriptionState(db, { ...effect.state, userId }, effects, billingNow);
      // The account's keys follow its access (issue 29), also when this state changed nothing stored: a
      // state the API answered earlier (renewal calls) may have been stored without the list following it.
      await syncPeerAccess(db, userId, billingNow);
      return outcome;
    }
  }
}

/**
 * A subscription of a deleted account is cancelled and its payment refunded (Stripe), by a job owed in
 * this transaction (refunds.ts). The local checkout cannot get here: its checkouts go with the account,
 * so Pay finds nothing to charge.
 */
async function endOrphanedSubscription(
  db: Db,
  state: { providerSubscriptionId: string; providerStatus: string; provider: 'stripe' | 'local' },
  effects: ProviderEffects,
): Promise<EventOutcome> {
  if (ENDED_STATUSES.has(state.providerStatus)) return 'ignored';
  await oweRefund(db, effects.jobs, {
    providerSubscriptionId: state.providerSubscriptionId,
    userId: null,
    provider: state.provider,
    reason: 'deleted_account',
  });
  return 'deleted_account_subscription_cancelled';
}

async function resolveUser(db: Db, userHint: string | null, customer: string | null): Promise<string | null> {
  if (userHint && (await findUserById(db, userHint))) return userHint;
  return customer ? findUserIdByCustomer(db, customer) : null;
}

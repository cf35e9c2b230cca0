/**
 * The local checkout (no Stripe key): the API hosts its own payment page. Paying emits Stripe-format
 * events, signed with the local webhook secret, into the very handler Stripe's events reach, so the
 * whole purchase runs offline through the production code path (design §7).
 */
import {
  cancelLocalCheckout,
  completeLocalCheckout,
  createLocalCheckout,
  findLocalCheckout,
  payableLocalCheckoutOwner,
} from '../domain/billing/checkouts.ts';
import { failures } from '../domain/errors.ts';
import type { Db } from '../domain/store.ts';
import { createLocalPortalSession, findLocalPortalSession } from '../domain/billing/billing-portal.ts';
import { findLiveSubscriptions, findSubscription, findSubscriptionByProviderId } from '../domain/billing/subscriptions.ts';
import { newId } from '../domain/tokens.ts';
import {
  advanceBillingClock,
  billingClockNow,
  localEvent as event,
  localInvoicePaid,
  onePeriodAfter,
  runBillingCycle,
  settlePastDue,
  type BillingCycleOptions,
  type EventSink,
} from './local-billing-clock.ts';
import type { CheckoutRequest, OpenedCheckout, PaymentProvider, RefundRequest, RefundResult } from '../domain/billing/payment-provider.ts';
import { chargeToRefund } from '../domain/billing/charges.ts';
import type { SubscriptionSnapshot } from '../domain/billing/payment-provider.ts';
import { readSubscriptionObject } from './subscription-object.ts';

export class LocalPaymentProvider implements PaymentProvider {
  readonly kind = 'local' as const;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    /** Hands a signed event to the webhook handler, exactly as an HTTP delivery would. */
    private readonly emit: EventSink,
    /** Runs after each run of the billing clock, at its time (the renewal notices' sweep). */
    private readonly afterClockRun: (now: Date) => Promise<void> = async () => {},
  ) {}

  async createCheckout({ userId }: CheckoutRequest): Promise<OpenedCheckout> {
    const { id, expiresAt } = await createLocalCheckout(this.db, userId);
    return { id, url: `${this.publicUrl}/api/checkout/local/${id}`, expiresAt };
  }

  openSession(id: string, now = new Date()) {
    return findLocalCheckout(this.db, id, now);
  }

  /** The billing clock (local-billing-clock.ts): its time, moving it forward, and a run of what fell due. */
  clockNow(): Promise<Date> {
    return billingClockNow(this.db);
  }

  async advanceClock(bySeconds: number, options: BillingCycleOptions = {}) {
    const result = await advanceBillingClock(this.db, this.emit, bySeconds, options);
    await this.afterClockRun(result.now);
    return result;
  }

  async runBillingCycle() {
    const now = await this.clockNow();
    const result = await runBillingCycle(this.db, this.emit, now);
    await this.afterClockRun(now);
    return result;
  }

  /**
   * The Pay button: one period of the plan from now (the billing clock's now). Answers false, charging
   * nothing, when the account already has a live subscription (a second checkout paid after the first).
   */
  async pay(checkoutId: string, now = new Date()): Promise<boolean> {
    const userId = await payableLocalCheckoutOwner(this.db, checkoutId, now);
    if ((await findLiveSubscriptions(this.db, userId, await this.clockNow())).length > 0) {
      await this.cancelCheckout(checkoutId);
      return false;
    }
    const user = await completeLocalCheckout(this.db, checkoutId, now);
    const customer = user.paymentCustomerId ?? newId('cus_local');
    const subscriptionId = newId('sub_local');
    const start = await this.clockNow();
    const created = Math.floor(start.getTime() / 1000);
    await this.emit(event('checkout.session.completed', created, {
      id: checkoutId,
      mode: 'subscription',
      client_reference_id: user.id,
      customer,
      subscription: subscriptionId,
    }));
    const periodEnd = Math.floor(onePeriodAfter(start).getTime() / 1000);
    await this.emit(event('customer.subscription.created', created, {
      id: subscriptionId,
      customer,
      status: 'active',
      cancel_at_period_end: false,
      current_period_end: periodEnd,
      metadata: { userId: user.id },
    }));
    await this.emit(localInvoicePaid(subscriptionId, user.id, created, periodEnd));
    return true;
  }

  cancelCheckout(checkoutId: string): Promise<void> {
    return cancelLocalCheckout(this.db, checkoutId);
  }

  /** Account deletion: the local checkout is cancelled, so Pay charges nothing (its row then goes with the account). */
  expireCheckout(checkoutId: string): Promise<void> {
    return cancelLocalCheckout(this.db, checkoutId);
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const object = await this.emitSubscriptionChange(subscriptionId, 'customer.subscription.updated', { cancel_at_period_end: true });
    return readSubscriptionObject(object)!;
  }

  async resumeRenewal(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const object = await this.emitSubscriptionChange(subscriptionId, 'customer.subscription.updated', { cancel_at_period_end: false });
    return readSubscriptionObject(object)!;
  }

  async cancelImmediately(subscriptionId: string): Promise<void> {
    await this.emitSubscriptionChange(subscriptionId, 'customer.subscription.deleted', { status: 'canceled' });
  }

  /** The local billing portal page (server/http/local-portal-page.ts). */
  async openBillingPortal({ userId }: { userId: string }): Promise<string> {
    return `${this.publicUrl}/api/billing/portal/local/${await createLocalPortalSession(this.db, userId)}`;
  }

  /** The portal page's account and the subscription it shows; null for a link unknown or expired. */
  async portalSession(id: string) {
    const session = await findLocalPortalSession(this.db, id);
    if (!session) return null;
    return { ...session, subscription: (await findSubscription(this.db, session.userId)) ?? null };
  }

  /**
   * The portal's form: the card is updated (nothing to store locally) and a declined renewal is paid
   * now, renewing from the original period end. Answers false for a link unknown or expired.
   */
  async updateCardAndSettle(id: string): Promise<boolean> {
    const session = await this.portalSession(id);
    if (!session) return false;
    const row = session.subscription;
    if (row?.provider === 'local' && row.status === 'past_due') await settlePastDue(this.db, this.emit, row);
    return true;
  }

  /**
   * The refund job: the subscription ends now (unless it has already); the local checkout moves no real
   * money, so the refund is "made" at once for what the refunded charge was (none paid: nothing owed).
   */
  async cancelAndRefund({ subscriptionId, chargeId, owed }: RefundRequest): Promise<RefundResult> {
    const row = await findSubscriptionByProviderId(this.db, subscriptionId);
    if (row && row.status !== 'cancelled') await this.cancelImmediately(subscriptionId);
    // A named charge (money-back) is refunded whoever ended the subscription, even once its row left
    // with the deleted account: then for what the refund row says was paid.
    const charge = (await chargeToRefund(this.db, subscriptionId, chargeId)) ?? (chargeId ? owed : null);
    if (!charge) return { kind: 'not_owed', reason: 'nothing_paid' };
    return { kind: 'made', pending: false, refundId: null, paymentIntent: null, amount: charge.amount, currency: charge.currency };
  }

  private async emitSubscriptionChange(subscriptionId: string, type: string, change: Record<string, unknown>) {
    const row = await findSubscriptionByProviderId(this.db, subscriptionId);
    if (!row) throw failures.noSubscription();
    const object = {
      id: subscriptionId,
      status: row.status === 'past_due' ? 'past_due' : row.status === 'cancelled' ? 'canceled' : 'active',
      cancel_at_period_end: row.cancelAtPeriodEnd,
      current_period_end: row.currentPeriodEnd ? Math.floor(row.currentPeriodEnd.getTime() / 1000) : null,
      metadata: { userId: row.userId },
      ...change,
    };
    // The local clock never gives two states of one subscription the same second, so order is never a tie.
    const now = Math.floor((await this.clockNow()).getTime() / 1000);
    await this.emit(event(type, Math.max(now, row.providerUpdatedAt + 1), object));
    return object;
  }
}

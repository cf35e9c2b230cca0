/**
 * The local checkout (no Stripe key): the API hosts its own payment page. Paying emits Stripe-format
 * events, signed with the local webhook secret, into the very handler Stripe's events reach, so the
 * whole purchase runs offline through the production code path (design §7).
 */
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { localCheckoutSessions, openCheckouts, subscriptions, users } from '../db/schema.ts';
import { failures } from '../domain/errors.ts';
import { findLiveSubscriptions } from '../domain/subscriptions.ts';
import { newId } from '../domain/tokens.ts';
import {
  advanceBillingClock,
  billingClockNow,
  localEvent as event,
  oneYearAfter,
  runBillingCycle,
  type EventSink,
} from './local-billing-clock.ts';
import type { CheckoutRequest, OpenedCheckout, PaymentProvider } from './provider.ts';
import { readSubscriptionObject, type SubscriptionSnapshot } from './subscription-object.ts';

/** A local checkout can be paid for an hour, like a Stripe one with `expires_at`. */
export const LOCAL_CHECKOUT_LIFETIME_MS = 3600_000;

export class LocalPaymentProvider implements PaymentProvider {
  readonly kind = 'local' as const;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    /** Hands a signed event to the webhook handler, exactly as an HTTP delivery would. */
    private readonly emit: EventSink,
  ) {}

  async createCheckout({ userId }: CheckoutRequest): Promise<OpenedCheckout> {
    const id = newId('cs_local');
    const createdAt = new Date();
    await this.db.insert(localCheckoutSessions).values({ id, userId, status: 'open', createdAt });
    return {
      id,
      url: `${this.publicUrl}/api/checkout/local/${id}`,
      expiresAt: new Date(createdAt.getTime() + LOCAL_CHECKOUT_LIFETIME_MS),
    };
  }

  async openSession(id: string, now = new Date()) {
    const [session] = await this.db
      .select({
        id: localCheckoutSessions.id,
        status: localCheckoutSessions.status,
        createdAt: localCheckoutSessions.createdAt,
        email: users.email,
      })
      .from(localCheckoutSessions)
      .innerJoin(users, eq(users.id, localCheckoutSessions.userId))
      .where(eq(localCheckoutSessions.id, id));
    if (!session) return null;
    const expired = session.status === 'open' && now.getTime() - session.createdAt.getTime() >= LOCAL_CHECKOUT_LIFETIME_MS;
    return { id: session.id, email: session.email, status: expired ? ('expired' as const) : session.status };
  }

  /** The billing clock (local-billing-clock.ts): its time, moving it forward, and a run of what fell due. */
  clockNow(): Promise<Date> {
    return billingClockNow(this.db);
  }

  advanceClock(bySeconds: number) {
    return advanceBillingClock(this.db, this.emit, bySeconds);
  }

  async runBillingCycle() {
    return runBillingCycle(this.db, this.emit, await this.clockNow());
  }

  /**
   * The Pay button: a year of subscription from now (the billing clock's now). Answers false, charging
   * nothing, when the account already has a live subscription (a second checkout paid after the first).
   */
  async pay(checkoutId: string, now = new Date()): Promise<boolean> {
    const fresh = and(
      eq(localCheckoutSessions.id, checkoutId),
      eq(localCheckoutSessions.status, 'open'),
      gt(localCheckoutSessions.createdAt, new Date(now.getTime() - LOCAL_CHECKOUT_LIFETIME_MS)),
    );
    const [open] = await this.db.select().from(localCheckoutSessions).where(fresh);
    if (!open) throw failures.notFound('Open checkout');
    if ((await findLiveSubscriptions(this.db, open.userId)).length > 0) {
      await this.cancelCheckout(checkoutId);
      return false;
    }
    const [session] = await this.db.update(localCheckoutSessions).set({ status: 'completed' }).where(fresh).returning();
    if (!session) throw failures.notFound('Open checkout');
    const [user] = await this.db.select().from(users).where(eq(users.id, session.userId));
    if (!user) throw failures.notFound('Account');
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
    await this.emit(event('customer.subscription.created', created, {
      id: subscriptionId,
      customer,
      status: 'active',
      cancel_at_period_end: false,
      current_period_end: Math.floor(oneYearAfter(start).getTime() / 1000),
      metadata: { userId: user.id },
    }));
    return true;
  }

  async cancelCheckout(checkoutId: string): Promise<void> {
    await this.db
      .update(localCheckoutSessions)
      .set({ status: 'cancelled' })
      .where(and(eq(localCheckoutSessions.id, checkoutId), eq(localCheckoutSessions.status, 'open')));
    await this.db.delete(openCheckouts).where(eq(openCheckouts.checkoutId, checkoutId));
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const object = await this.emitSubscriptionChange(subscriptionId, 'customer.subscription.updated', { cancel_at_period_end: true });
    return readSubscriptionObject(object)!;
  }

  async cancelImmediately(subscriptionId: string): Promise<void> {
    await this.emitSubscriptionChange(subscriptionId, 'customer.subscription.deleted', { status: 'canceled' });
  }

  private async emitSubscriptionChange(subscriptionId: string, type: string, change: Record<string, unknown>) {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, subscriptionId));
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

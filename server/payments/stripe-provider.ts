/** Stripe Checkout in subscription mode, through the official SDK (design §2, §7). */
import { createHash, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { brandForServer } from '../brand.ts';
import { failures } from '../domain/errors.ts';
import type { CheckoutRequest, OpenedCheckout, PaymentProvider } from '../domain/payment-provider.ts';
import type { SubscriptionSnapshot } from '../domain/payment-provider.ts';
import { readSubscriptionObject } from './subscription-object.ts';

export interface StripeSettings {
  secretKey: string;
  priceId: string;
  publicUrl: string;
  /** e.g. http://127.0.0.1:12111 for an offline stand-in of Stripe's API in tests. */
  apiBase?: string;
  /** One request's limit (the SDK's default is 80 s); about 10 s in production. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** How long a Stripe checkout stays payable (Stripe allows 30 minutes to 24 hours). */
const STRIPE_CHECKOUT_LIFETIME_SECONDS = 3600;

function createStripeClient({ secretKey, apiBase, timeoutMs = DEFAULT_TIMEOUT_MS }: Pick<StripeSettings, 'secretKey' | 'apiBase' | 'timeoutMs'>): Stripe {
  // A short limit: a slow Stripe must not hold a request (or a job) for the SDK's default 80 s; the SDK's
  // own retries, then the job's, ride out a blip.
  if (!apiBase) return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: timeoutMs });
  const url = new URL(apiBase);
  return new Stripe(secretKey, {
    timeout: timeoutMs,
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 0,
  });
}

/**
 * An idempotency key for one attempt. Stripe refuses a key reused with other parameters, so a key is
 * either unique to the attempt (the SDK's own network retries reuse it) or derived from every parameter.
 */
const attemptKey = (action: string, id: string) => `${action}:${id}:${randomUUID()}`;
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));
/** Stripe subscription statuses from which nothing can be charged again. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = createStripeClient(settings);
  }

  async createCustomer({ userId, email }: { userId: string; email: string }): Promise<string> {
    // Two first checkouts at once make one customer: the key is the same only when every parameter is.
    const parameters = createHash('sha256').update(`${userId}\n${email}`).digest('hex').slice(0, 32);
    const customer = await this.stripe.customers.create(
      { email, metadata: { userId } },
      { idempotencyKey: `customer:${userId}:${parameters}` },
    );
    return customer.id;
  }

  async createCheckout({ userId, email, customerId }: CheckoutRequest): Promise<OpenedCheckout> {
    const expiresAt = Math.floor(Date.now() / 1000) + STRIPE_CHECKOUT_LIFETIME_SECONDS;
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [{ price: this.settings.priceId, quantity: 1 }],
        client_reference_id: userId,
        ...(customerId ? { customer: customerId } : { customer_email: email }),
        subscription_data: { metadata: { userId } },
        metadata: { userId },
        expires_at: expiresAt,
        // Said before paying (issue 20, item 7: automatic-renewal laws), next to the Subscribe button.
        custom_text: { submit: { message: brandForServer.renewalDisclosure } },
        success_url: `${this.settings.publicUrl}/success`,
        cancel_url: `${this.settings.publicUrl}/cancel`,
      },
      { idempotencyKey: attemptKey('checkout', userId) },
    );
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return { id: session.id, url: session.url, expiresAt: new Date((session.expires_at ?? expiresAt) * 1000) };
  }

  /**
   * Closes a checkout so it can no longer be paid (account deletion). Stripe refuses to expire one that is
   * not open; one completed or expired already (or unknown) needs nothing, so it must not stop a deletion.
   */
  async expireCheckout(checkoutId: string): Promise<void> {
    try {
      await this.stripe.checkout.sessions.expire(checkoutId, {}, { idempotencyKey: attemptKey('expire-checkout', checkoutId) });
    } catch (error) {
      if (!(await this.isCheckoutClosed(checkoutId))) throw error;
    }
  }

  private async isCheckoutClosed(checkoutId: string): Promise<boolean> {
    try {
      return (await this.stripe.checkout.sessions.retrieve(checkoutId)).status !== 'open';
    } catch (error) {
      return error instanceof Stripe.errors.StripeError && error.code === 'resource_missing';
    }
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const subscription = await this.stripe.subscriptions.update(
      subscriptionId,
      { cancel_at_period_end: true },
      { idempotencyKey: attemptKey('cancel-at-period-end', subscriptionId) },
    );
    const snapshot = readSubscriptionObject(subscription);
    if (!snapshot) throw new Error('Stripe answered the cancellation with an unreadable subscription');
    return snapshot;
  }

  /** Renewal back on: `cancel_at_period_end` false and any `cancel_at` cleared (an empty value unsets it). */
  async resumeRenewal(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const subscription = await this.stripe.subscriptions.update(
      subscriptionId,
      { cancel_at_period_end: false, cancel_at: '' },
      { idempotencyKey: attemptKey('resume', subscriptionId) },
    );
    const snapshot = readSubscriptionObject(subscription);
    if (!snapshot) throw new Error('Stripe answered the resumption with an unreadable subscription');
    return snapshot;
  }

  /**
   * Ends the subscription now. One already in a final state at Stripe (cancelled, expired, or gone) needs
   * no ending, so its refusal to cancel again must not make account deletion impossible (issue 11 item 6).
   */
  async cancelImmediately(subscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: attemptKey('cancel-now', subscriptionId) });
    } catch (error) {
      if (!(await this.isAlreadyEnded(subscriptionId))) throw error;
    }
  }

  private async isAlreadyEnded(subscriptionId: string): Promise<boolean> {
    try {
      const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
      return FINAL_STATUSES.has(subscription.status);
    } catch (error) {
      return error instanceof Stripe.errors.StripeError && error.code === 'resource_missing';
    }
  }

  async cancelAndRefund(subscriptionId: string, idempotencyKey: string): Promise<{ paymentIntent: string | null }> {
    // A retried job finds it already cancelled and goes on to the refund, which may not have happened.
    let subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.status !== 'canceled') {
      subscription = await this.stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `${idempotencyKey}:cancel` });
    }
    const invoice = idOf(subscription.latest_invoice);
    let refunded: string | null = null;
    if (!invoice) return { paymentIntent: refunded };
    const payments = await this.stripe.invoicePayments.list({ invoice, status: 'paid' });
    for (const payment of payments.data) {
      const paymentIntent = idOf(payment.payment.payment_intent);
      if (!paymentIntent) continue;
      // Same payment, same parameters: a retry cannot refund twice.
      await this.stripe.refunds
        .create({ payment_intent: paymentIntent }, { idempotencyKey: `refund:${paymentIntent}` })
        .catch((error: unknown) => {
          // Refunded by an earlier delivery whose key has since expired: nothing is left to do.
          if ((error as { code?: string }).code !== 'charge_already_refunded') throw error;
        });
      refunded ??= paymentIntent;
    }
    return { paymentIntent: refunded };
  }

  async openBillingPortal({ customerId }: { customerId: string | null }): Promise<string> {
    if (!customerId) throw failures.noSubscription();
    const session = await this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: `${this.settings.publicUrl}/account` });
    return session.url;
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    return readSubscriptionObject(await this.stripe.subscriptions.retrieve(subscriptionId));
  }
}

/** Stripe Checkout in subscription mode, through the official SDK (design §2, §7). */
import Stripe from 'stripe';
import type { CheckoutRequest, PaymentProvider } from './provider.ts';

export interface StripeSettings {
  secretKey: string;
  priceId: string;
  publicUrl: string;
  /** e.g. http://127.0.0.1:12111 for an offline stand-in of Stripe's API in tests. */
  apiBase?: string;
}

export function createStripeClient({ secretKey, apiBase }: Pick<StripeSettings, 'secretKey' | 'apiBase'>): Stripe {
  if (!apiBase) return new Stripe(secretKey, { maxNetworkRetries: 2 });
  const url = new URL(apiBase);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 0,
  });
}

/** Stripe subscription statuses from which nothing can be charged again. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = createStripeClient(settings);
  }

  async createCheckout({ userId, email, customerId }: CheckoutRequest): Promise<string> {
    // One checkout per customer per minute: a double click or a retried request gets the same session.
    const minute = Math.floor(Date.now() / 60_000);
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [{ price: this.settings.priceId, quantity: 1 }],
        client_reference_id: userId,
        ...(customerId ? { customer: customerId } : { customer_email: email }),
        subscription_data: { metadata: { userId } },
        metadata: { userId },
        success_url: `${this.settings.publicUrl}/success`,
        cancel_url: `${this.settings.publicUrl}/cancel`,
      },
      { idempotencyKey: `checkout:${userId}:${minute}` },
    );
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return session.url;
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    await this.stripe.subscriptions.update(
      subscriptionId,
      { cancel_at_period_end: true },
      { idempotencyKey: `cancel-at-period-end:${subscriptionId}` },
    );
  }

  /**
   * Ends the subscription now. One already in a final state at Stripe (cancelled, expired, or gone) needs
   * no ending, so its refusal to cancel again must not make account deletion impossible (issue 11 item 6).
   */
  async cancelImmediately(subscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `cancel-now:${subscriptionId}` });
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
}

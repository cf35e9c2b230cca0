/**
 * The payment port: what the domain needs of a payment provider, in the domain's words. The adapters in
 * server/payments (Stripe, the local checkout) implement it; the domain never imports them (lint holds it).
 */

/** A provider subscription read into the few facts the API keeps (server/payments/subscription-object.ts reads it). */
export interface SubscriptionSnapshot {
  id: string;
  customer: string | null;
  /** The account named in the subscription's metadata (set at checkout). */
  userId: string | null;
  providerStatus: string;
  plan: string | null;
  /** The price subscribed to (Stripe): only the configured plan's count. */
  priceId: string | null;
  cancelAtPeriodEnd: boolean;
  /** When it ends or renews: `cancel_at` when set, otherwise the period end. */
  currentPeriodEnd: Date | null;
}

export interface CheckoutRequest {
  userId: string;
  email: string;
  /** The account's one customer at the provider, when it has one. */
  customerId: string | null;
}

export interface OpenedCheckout {
  id: string;
  /** The hosted checkout page to send the browser to. */
  url: string;
  /** After this the checkout can no longer be paid (local: an hour; Stripe: `expires_at`). */
  expiresAt: Date;
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'local';
  /** The provider's customer for an account, made once and stored by the caller (Stripe). */
  createCustomer?(request: { userId: string; email: string }): Promise<string>;
  createCheckout(request: CheckoutRequest): Promise<OpenedCheckout>;
  /**
   * Account deletion: the checkout can no longer be paid. One already completed or expired (or unknown)
   * at the provider needs nothing; only a checkout still open that could not be closed throws.
   */
  expireCheckout(checkoutId: string): Promise<void>;
  /** Auto-renewal off: the subscription ends at its period end, with no further charge. Answers the new state. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionSnapshot>;
  /** Auto-renewal back on while the period runs (no end date any more). Answers the new state. */
  resumeRenewal(subscriptionId: string): Promise<SubscriptionSnapshot>;
  /** Account deletion: end the subscription now. */
  cancelImmediately(subscriptionId: string): Promise<void>;
  /**
   * A subscription that must not be kept (a second one, one paid for an account deleted meanwhile, or the
   * money-back guarantee): end it now and refund its payment. Run by the refund job: `idempotencyKey`
   * comes from the job, so every retry of it asks the provider the same thing and nothing happens twice.
   * Answers the payment refunded (Stripe), if any.
   */
  cancelAndRefund(subscriptionId: string, idempotencyKey: string): Promise<{ paymentIntent: string | null }>;
  /** Where the customer updates the card and settles what is owed (Stripe's Billing Portal, or the local page). */
  openBillingPortal(request: { userId: string; customerId: string | null }): Promise<string>;
  /** The subscription as the provider holds it now (to settle events of the same second). */
  retrieveSubscription?(subscriptionId: string): Promise<SubscriptionSnapshot | null>;
}

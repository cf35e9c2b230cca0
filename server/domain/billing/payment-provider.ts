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
  /** That price's product (Stripe): any price of the plan's product counts. */
  productId: string | null;
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
  createCustomer?(request: {
    userId: string;
    email: string;
    /** How many customers of the account were deleted at the provider: a new one is not the deleted one replayed. */
    replacing: number;
  }): Promise<string>;
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
   * money-back guarantee): end it now and refund a payment. Run by the refund job, again after any throw
   * (a network fault, a provider 5xx): nothing is ever refunded twice. See RefundRequest and RefundResult.
   */
  cancelAndRefund(request: RefundRequest): Promise<RefundResult>;
  /** Where the customer updates the card and settles what is owed (Stripe's Billing Portal, or the local page). */
  openBillingPortal(request: { userId: string; customerId: string | null }): Promise<string>;
  /** The subscription as the provider holds it now (to settle events of the same second). */
  retrieveSubscription?(subscriptionId: string): Promise<SubscriptionSnapshot | null>;
  /** The customer a charge belongs to (Stripe): a dispute names only its charge. */
  chargeCustomer?(chargeId: string): Promise<string | null>;
  /** The payment intent that paid an invoice (Stripe), or null: a charge is stored with it. */
  invoicePayment?(invoiceId: string): Promise<string | null>;
  /** The product of the configured price (Stripe): every price of it is the plan (a plan switch, a price migration). */
  planProduct?(): Promise<string | null>;
}

/**
 * The refund's metadata naming the refund job's key (`refund:<subscription>`): a retry finds the refund an
 * earlier attempt made, and a status event that arrives before the job stored the refund's id is matched by it.
 */
export const REFUND_KEY_METADATA = 'veil_refund';

export interface RefundRequest {
  subscriptionId: string;
  /** The job's key: the same for every attempt of one owed refund. */
  key: string;
  /**
   * The charge the rule refunds (money-back: the account's first payment), refunded even when someone else
   * ended the subscription. Null: the subscription's own latest payment, refunded only if this refund
   * ends the subscription (one ended elsewhere, e.g. by the account's deletion, owes nothing).
   */
  chargeId: string | null;
  /**
   * The subscription's payment is owed back whoever ended it (a second subscription, issue 46 item 1: the
   * customer or support may cancel it in the portal before the refund job gets through). False: only if
   * this refund ends it (the account's deletion promises no refund of a subscription ended by the deletion).
   */
  owedWhoeverEndsIt?: boolean;
  /**
   * What the refund row says is owed for `chargeId` (its amount, read when it was owed), or null: the local
   * checkout refunds that when the charge row left with its deleted account (Stripe keeps its own).
   */
  owed?: { amount: number; currency: string } | null;
  /** Told the payment about to be refunded before the provider is asked (the history shows it once). */
  onPaymentChosen?: (paymentIntent: string) => Promise<void>;
}

/** What became of a refund at the provider. Amounts are the provider's, in the currency's smallest unit. */
export type RefundResult =
  /** The money left (or is on its way: `pending`, confirmed or failed later by the provider's events). */
  | { kind: 'made'; pending: boolean; refundId: string | null; paymentIntent: string | null; amount: number; currency: string }
  /** Refused for good (a disputed charge, a 402): `reason` is the provider's code. */
  | {
      kind: 'failed';
      reason: string;
      paymentIntent: string | null;
      /** What the refused refund was of (the payment's amount), when the provider told it. */
      amount?: number;
      currency?: string;
    }
  /**
   * Nothing to refund: the subscription was ended by someone else, nothing was ever paid (a trial), or
   * the payment was refunded in full already (the Dashboard; its own report shows it).
   */
  | { kind: 'not_owed'; reason: 'cancelled_elsewhere' | 'nothing_paid' | 'already_refunded' };

/** What the API needs of a payment provider; Stripe and the local checkout both implement it. */
export interface CheckoutRequest {
  userId: string;
  email: string;
  /** The customer id from an earlier purchase, reused so one person is one customer. */
  customerId: string | null;
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'local';
  /** The hosted checkout page to send the browser to. */
  createCheckout(request: CheckoutRequest): Promise<string>;
  /** Auto-renewal off: the subscription ends at its period end, with no further charge. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /** Account deletion: end the subscription now. */
  cancelImmediately(subscriptionId: string): Promise<void>;
}

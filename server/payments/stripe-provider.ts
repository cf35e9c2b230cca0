/** Stripe Checkout in subscription mode, through the official SDK (design §2, §7). */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { brandForServer } from '../brand.ts';
import { failures } from '../domain/errors.ts';
import { REFUND_KEY_METADATA, type CheckoutRequest, type OpenedCheckout, type PaymentProvider, type RefundRequest, type RefundResult } from '../domain/billing/payment-provider.ts';
import type { SubscriptionSnapshot } from '../domain/billing/payment-provider.ts';
import { readSubscriptionObject } from './subscription-object.ts';

export interface StripeSettings {
  secretKey: string;
  priceId: string;
  publicUrl: string;
  /** The Billing Portal configuration (bpc_…): what customers may change there is ours, not the Dashboard default's. */
  portalConfiguration?: string | undefined;
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

/** A refund as Stripe answered it: made (or on its way), or failed. */
function readRefund(refund: Stripe.Refund, paymentIntent: string): RefundResult {
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return { kind: 'failed', reason: refund.failure_reason ?? refund.status, paymentIntent };
  }
  return { kind: 'made', pending: refund.status !== 'succeeded', refundId: refund.id, paymentIntent, amount: refund.amount, currency: refund.currency };
}

/**
 * Stripe's refusals that no retry changes, as the reason stored: a disputed charge (400 `charge_disputed`),
 * and a 402 (the request was valid but could not be carried out, e.g. the balance cannot cover it).
 * Anything else (5xx, network, rate limits) is thrown for the job to retry.
 */
function permanentRefusal(error: unknown): string | null {
  if (!(error instanceof Stripe.errors.StripeError)) return null;
  if (error.code === 'charge_disputed') return 'charge_disputed';
  if (error.statusCode === 402) return error.code ?? 'payment_required';
  return null;
}

/** Stripe subscription statuses from which nothing can be charged again. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = createStripeClient(settings);
  }

  /**
   * A key of this attempt, as every other call has: a constant key made a 500 that Stripe saved (it replays
   * it for 24 hours) block the account's checkout for a day (issue 46, item 5). Two first checkouts at once
   * cannot make two customers: the checkout holds the account's lock while it makes one (checkouts.ts).
   */
  async createCustomer({ userId, email }: { userId: string; email: string; replacing: number }): Promise<string> {
    const customer = await this.stripe.customers.create({ email, metadata: { userId } }, { idempotencyKey: attemptKey('customer', userId) });
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

  /**
   * Ends the subscription (unless it has ended) and refunds a payment (design: docs/decisions.md, "Refund
   * states"). Our own cancellation carries the job's key as its comment, so a retry tells "we ended it"
   * (go on to the refund) from "someone else did" (the account's deletion, the Dashboard, Stripe): then
   * the subscription's payment is not refunded, since deletion promises no refund of unused time.
   *
   * Every request has a key of its own attempt: Stripe replays a recorded error under a key for 24 hours,
   * so a constant key would make one 500 permanent. A second refund is prevented by reading the payment's
   * refunds first: one this job made (its metadata names the key) is the refund.
   */
  async cancelAndRefund({ subscriptionId, key, chargeId, owedWhoeverEndsIt = false, onPaymentChosen }: RefundRequest): Promise<RefundResult> {
    const subscription = await this.endForRefund(subscriptionId, key);
    if (!subscription.endedHere && !chargeId && !owedWhoeverEndsIt) return { kind: 'not_owed', reason: 'cancelled_elsewhere' };
    const invoice = chargeId ?? subscription.latestInvoice;
    const paid = invoice ? await this.paidPaymentOf(invoice) : null;
    if (!paid) return { kind: 'not_owed', reason: 'nothing_paid' };
    const payment = paid.paymentIntent;
    await onPaymentChosen?.(payment);
    const [earlier] = (await this.stripe.refunds.list({ payment_intent: payment, limit: 100 })).data.filter(
      (refund) => refund.metadata?.[REFUND_KEY_METADATA] === key,
    );
    if (earlier) return readRefund(earlier, payment);
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: payment, metadata: { [REFUND_KEY_METADATA]: key } },
        { idempotencyKey: attemptKey(key, payment) },
      );
      return readRefund(refund, payment);
    } catch (error) {
      // Refunded in full already, by someone else (the Dashboard): its charge.refunded shows it.
      if (error instanceof Stripe.errors.StripeError && error.code === 'charge_already_refunded') return { kind: 'not_owed', reason: 'already_refunded' };
      const failure = permanentRefusal(error);
      // Told with the payment's amount: a refund owed before its amount was known still says how much (issue 46, item 4).
      if (failure) return { kind: 'failed', reason: failure, paymentIntent: payment, amount: paid.amount, currency: paid.currency };
      throw error;
    }
  }

  /** The subscription ended, and whether by this refund (its cancellation comment is the job's key). */
  private async endForRefund(subscriptionId: string, key: string): Promise<{ endedHere: boolean; latestInvoice: string | null }> {
    let subscription: Stripe.Subscription;
    try {
      subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    } catch (error) {
      // Gone at Stripe: ended by someone else, with nothing to read.
      if (error instanceof Stripe.errors.StripeError && error.code === 'resource_missing') return { endedHere: false, latestInvoice: null };
      throw error;
    }
    if (FINAL_STATUSES.has(subscription.status)) {
      return { endedHere: subscription.cancellation_details?.comment === key, latestInvoice: idOf(subscription.latest_invoice) };
    }
    const ended = await this.stripe.subscriptions.cancel(
      subscriptionId,
      { cancellation_details: { comment: key } },
      { idempotencyKey: attemptKey('refund-cancel', key) },
    );
    return { endedHere: true, latestInvoice: idOf(ended.latest_invoice) };
  }

  /** The payment intent that paid `invoice`, if it was paid. */
  async invoicePayment(invoice: string): Promise<string | null> {
    return (await this.paidPaymentOf(invoice))?.paymentIntent ?? null;
  }

  /** The payment intent that paid `invoice` and what it paid, if it was paid. */
  private async paidPaymentOf(invoice: string): Promise<{ paymentIntent: string; amount: number; currency: string } | null> {
    const payments = await this.stripe.invoicePayments.list({ invoice, status: 'paid' });
    for (const payment of payments.data) {
      const paymentIntent = idOf(payment.payment.payment_intent);
      if (paymentIntent) return { paymentIntent, amount: payment.amount_paid ?? payment.amount_requested, currency: payment.currency };
    }
    return null;
  }

  async openBillingPortal({ customerId }: { customerId: string | null }): Promise<string> {
    if (!customerId) throw failures.noSubscription();
    const { portalConfiguration: configuration } = this.settings;
    const session = await this.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: `${this.settings.publicUrl}/account`,
      ...(configuration && { configuration }),
    });
    return session.url;
  }

  async chargeCustomer(chargeId: string): Promise<string | null> {
    return idOf((await this.stripe.charges.retrieve(chargeId)).customer);
  }

  /** Asked once (and again only after a failure): a price's product never changes. */
  private product: Promise<string | null> | null = null;

  planProduct(): Promise<string | null> {
    this.product ??= this.stripe.prices.retrieve(this.settings.priceId).then(
      (price) => idOf(price.product),
      (error: unknown) => {
        this.product = null;
        throw error;
      },
    );
    return this.product;
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    return readSubscriptionObject(await this.stripe.subscriptions.retrieve(subscriptionId));
  }
}

/**
 * Billing calls: checkout, auto-renewal off and on, the money-back refund, the billing portal and history.
 * Part of the API contract (contract/api.ts).
 */
import { z } from 'zod';
import { subscriptionSchema, successAnswer, text, token } from './api-common.ts';

// POST /subscription/create-checkout: answers the checkout page's URL (no `success`, as design §7 has it)
export const createCheckoutRequestSchema = z.object({
  idToken: token,
  email: text(320).refine((value) => value.length > 0, 'must not be empty'),
});
export const createCheckoutAnswerSchema = z.object({ url: z.string() });

// POST /subscription/cancel
export const cancelSubscriptionRequestSchema = z.object({ idToken: token });
export const cancelSubscriptionAnswerSchema = successAnswer({ subscription: subscriptionSchema.nullable() });

// POST /subscription/resume: auto-renewal back on while the paid period runs (design §8)
export const resumeSubscriptionRequestSchema = z.object({ idToken: token });
export const resumeSubscriptionAnswerSchema = successAnswer({ subscription: subscriptionSchema.nullable() });

// POST /subscription/refund: the money-back guarantee; access ends now, the first payment is refunded
export const refundSubscriptionRequestSchema = z.object({ idToken: token });
const refundSchema = z.object({
  /** In the currency's smallest unit (cents for usd). */
  amount: z.number().int(),
  currency: z.string(),
});
export const refundSubscriptionAnswerSchema = successAnswer({ subscription: subscriptionSchema.nullable(), refund: refundSchema });

// POST /billing/portal: where to update the card and settle what is owed (Stripe's Billing Portal, or the local page)
export const billingPortalRequestSchema = z.object({ idToken: token });
export const billingPortalAnswerSchema = successAnswer({ url: z.string() });

// POST /billing/history: the account's own charges and refunds, newest first
export const billingHistoryRequestSchema = z.object({ sessionToken: token });
export const billingItemSchema = z.object({
  id: z.string(),
  /**
   * `failed`: the renewal charge the card declined, listed while the subscription is past due (issue 45, T24),
   * for the plan's price on the renewal day; no money moved, so no receipt.
   */
  kind: z.enum(['charge', 'refund', 'failed']),
  /** In the currency's smallest unit (cents for usd); positive for refunds too. */
  amount: z.number().int(),
  currency: z.string(),
  /** ISO 8601 timestamp. */
  date: z.string(),
  description: z.string(),
  /** The receipt to show or print (Stripe's hosted invoice or receipt; the local checkout's own page). */
  receiptUrl: z.string().nullable(),
  /**
   * A refund's state (docs/decisions.md, "Refund states"): `owed` (being made), `made` (the money left),
   * `failed` (refused or failed at the provider; support contacts the customer). Absent on charges.
   */
  refundState: z.enum(['owed', 'made', 'failed']).optional(),
});
export type BillingItem = z.infer<typeof billingItemSchema>;
export const billingHistoryAnswerSchema = successAnswer({
  items: z.array(billingItemSchema),
  /** ISO 8601: until when the money-back guarantee can be claimed; absent when it cannot. */
  refundableUntil: z.string().optional(),
});

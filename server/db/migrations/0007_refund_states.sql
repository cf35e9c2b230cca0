-- Refunds have a life (issue 34): owed, then made or failed (with Stripe's reason), or not owed after all
-- (the subscription was ended by someone else: nothing is refunded, see docs/decisions.md). The billing
-- history shows owed, made and failed truthfully; the refund e-mail goes only for money that left.
ALTER TABLE refunds ADD COLUMN state text NOT NULL DEFAULT 'owed';
UPDATE refunds SET state = 'made' WHERE refunded_at IS NOT NULL;
-- Why it failed (Stripe's code: charge_disputed, insufficient_funds, …) or why nothing was owed.
ALTER TABLE refunds ADD COLUMN state_reason text;
ALTER TABLE refunds ADD COLUMN failed_at timestamptz;
-- Stripe's refund (re_…): its later refund.failed / charge.refund.updated finds the row by it.
ALTER TABLE refunds ADD COLUMN provider_refund_id text;
CREATE INDEX refunds_provider_refund ON refunds (provider_refund_id);
-- The payment to refund, when the rule names one (money-back: the first charge); null: the subscription's.
ALTER TABLE refunds ADD COLUMN charge_id text;
-- Owed before its amount is known (Stripe says how much it refunded): no hard-coded price.
ALTER TABLE refunds ALTER COLUMN amount DROP NOT NULL;
ALTER TABLE refunds ALTER COLUMN currency DROP NOT NULL;

-- How many of the account's customers were deleted at the provider (Stripe Dashboard): part of the
-- idempotency key of the next customer, so a deleted customer is not replayed as itself.
ALTER TABLE users ADD COLUMN payment_customers_deleted integer NOT NULL DEFAULT 0;

-- Disputes (issue 34): a payment the customer disputed with their card issuer cannot be refunded (Stripe
-- answers 400 charge_disputed), so the money-back claim is refused with a clear message while one is open.
-- From Stripe's charge.dispute.* events; they go with the account.
CREATE TABLE disputes (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  charge_id text,
  payment_intent text,
  status text NOT NULL,
  provider_updated_at bigint NOT NULL,
  opened_at timestamptz NOT NULL
);
CREATE INDEX disputes_user ON disputes (user_id);

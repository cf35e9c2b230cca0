-- A customer's year of billing (issue 20).
-- charges: every payment the provider reported (Stripe's invoice.paid; the local checkout's own), the
-- billing history's charges and the start of the 30-day money-back window; they go with the account.
CREATE TABLE charges (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_subscription_id text,
  amount integer NOT NULL,
  currency text NOT NULL,
  paid_at timestamptz NOT NULL,
  description text NOT NULL,
  receipt_url text
);
CREATE INDEX charges_user ON charges (user_id, paid_at);

-- refunds: a refund the product owes, recorded in the transaction that owes it, before the provider is
-- asked (a job does that and stamps refunded_at). Nothing deletes or skips a row; a deleted account's
-- refund keeps no user id but is still made.
CREATE TABLE refunds (
  provider_subscription_id text PRIMARY KEY,
  user_id text REFERENCES users(id) ON DELETE SET NULL,
  provider text NOT NULL,
  reason text NOT NULL,
  amount integer NOT NULL,
  currency text NOT NULL,
  owed_at timestamptz NOT NULL DEFAULT now(),
  refunded_at timestamptz
);
CREATE INDEX refunds_user ON refunds (user_id);

-- The local checkout's billing portal page (its link is the credential, like a checkout's): an hour.
CREATE TABLE local_portal_sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);

-- Refunds as Stripe reports them (charge.refunded), for the billing history with Stripe's receipt; an owed
-- refund made by the refund job names its payment intent, so the two are shown once.
CREATE TABLE provider_refunds (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  payment_intent text,
  amount integer NOT NULL,
  currency text NOT NULL,
  refunded_at timestamptz NOT NULL,
  receipt_url text
);
CREATE INDEX provider_refunds_user ON provider_refunds (user_id);
ALTER TABLE refunds ADD COLUMN payment_intent text;

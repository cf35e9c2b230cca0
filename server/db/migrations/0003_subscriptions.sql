-- One live subscription per account (issue 10, section 3). Rows are keyed by the provider's subscription
-- id, so a second subscription (a stray second payment) is a row of its own that cancel and deletion reach,
-- never a silent replacement of the first.
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_pkey;
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_provider_subscription_id_key;
ALTER TABLE subscriptions ADD PRIMARY KEY (provider_subscription_id);
CREATE INDEX subscriptions_user_id_idx ON subscriptions (user_id);
-- The backstop of the rule the code applies: two deliveries racing cannot both leave a live row.
CREATE UNIQUE INDEX subscriptions_one_live_per_user ON subscriptions (user_id) WHERE status IN ('active', 'past_due');

-- The checkout an account has open (Stripe or local), reused until shortly before it expires, so a
-- double click or a second tab does not open a second payable checkout.
CREATE TABLE open_checkouts (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  checkout_id text NOT NULL,
  url text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The local checkout's billing clock (issue 11, item 10): how far developers and tests moved it ahead of
-- real time, like a Stripe test clock. One row at most; none means real time.
CREATE TABLE local_billing_clock (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  offset_seconds bigint NOT NULL DEFAULT 0
);

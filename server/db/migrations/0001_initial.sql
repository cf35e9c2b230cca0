-- Accounts, sessions, hand-off tokens, subscriptions, the payment-event ledger and deletion tombstones.
-- Plain SQL that PostgreSQL 15+ and PGlite both accept.

CREATE TABLE users (
  id text PRIMARY KEY,
  -- The identity provider's subject (Firebase uid); one account per identity.
  identity_subject text NOT NULL UNIQUE,
  provider text NOT NULL,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  payment_customer_id text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 of the token; the token itself is never stored.
  token_hash text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('web', 'desktop')),
  device_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE handoff_tokens (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX handoff_tokens_user_id_idx ON handoff_tokens (user_id);

CREATE TABLE subscriptions (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_subscription_id text NOT NULL UNIQUE,
  status text NOT NULL,
  plan text,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  current_period_end timestamptz,
  -- The provider's own time of the state applied (event `created`, seconds); older events are ignored.
  provider_updated_at bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE payment_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  provider_created bigint NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE local_checkout_sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('open', 'completed', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE deletion_tombstones (
  -- SHA-256 of the identity subject: enough to refuse a quick re-sign-up, useless for anything else.
  subject_hash text PRIMARY KEY,
  deleted_at timestamptz NOT NULL DEFAULT now()
);

-- Accounts deleted lately, by the SHA-256 of their user id only (issue 10, section 3): a subscription
-- paid in a checkout left open when its account was deleted names that user id in its metadata; with
-- this the webhook can tell "deleted" (cancel and refund it) from "not known yet" (defer it). Rows older
-- than 30 days (Stripe keeps events, and resends them, for 30 days) are purged at each deletion.
CREATE TABLE deleted_accounts (
  user_id_hash text PRIMARY KEY,
  deleted_at timestamptz NOT NULL DEFAULT now()
);

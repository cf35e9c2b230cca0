-- Issue 46, item 2: access follows the money. Stripe's `unpaid` (its retries ended, the subscription kept)
-- is still shown as past due, but unlike `past_due` it gives no VPN access: the keys leave the peer list.
ALTER TABLE subscriptions ADD COLUMN unpaid boolean NOT NULL DEFAULT false;

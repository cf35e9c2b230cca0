-- Issue 31: job payloads carry ids, never an address or a name. An e-mail owed after its account is gone
-- (the deletion confirmation; the notice of a refund claimed just before deletion) names a row here; the
-- mail worker reads the address from it when sending and deletes it once the mail server took the message
-- (or it failed for good). `keep_until` is set only on the standby address of a refund made before its
-- account was deleted (its failure is still announced): the daily clean-up deletes it after that day.
CREATE TABLE notice_addresses (
  id text PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  keep_until timestamptz
);

-- The address a refund still owed at deletion keeps (0012's notify_email/notify_name) moves here.
ALTER TABLE refunds ADD COLUMN notice_id text REFERENCES notice_addresses (id) ON DELETE SET NULL;
INSERT INTO notice_addresses (id, email, name)
  SELECT 'ntc_' || md5('refund:' || provider_subscription_id), notify_email, coalesce(notify_name, '')
  FROM refunds WHERE notify_email IS NOT NULL;
UPDATE refunds SET notice_id = 'ntc_' || md5('refund:' || provider_subscription_id) WHERE notify_email IS NOT NULL;
ALTER TABLE refunds DROP COLUMN notify_email;
ALTER TABLE refunds DROP COLUMN notify_name;

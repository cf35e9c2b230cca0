-- Issue 31: the refund job names its refund by an id of our own, never by the provider's subscription id
-- (which leads back to the customer at the provider, and which a settled refund of a deleted account keeps
-- only hashed while pg-boss keeps the finished job for days). Refunds owed before this keep the job they
-- were sent with ({subscriptionId}); the worker still carries those out.
ALTER TABLE refunds ADD COLUMN id text;
UPDATE refunds SET id = 'rfd_' || replace(gen_random_uuid()::text, '-', '') WHERE id IS NULL;
ALTER TABLE refunds ALTER COLUMN id SET DEFAULT 'rfd_' || replace(gen_random_uuid()::text, '-', '');
ALTER TABLE refunds ALTER COLUMN id SET NOT NULL;
ALTER TABLE refunds ADD CONSTRAINT refunds_id_key UNIQUE (id);

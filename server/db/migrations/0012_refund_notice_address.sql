-- Issue 31: a refund claimed just before its account is deleted is still announced. Deletion writes the
-- address (and name) here for each refund still owed; they are cleared in the transaction that owes the
-- notice (the e-mail's job, deleted once sent, then holds them) or that finds nothing owed.
ALTER TABLE refunds ADD COLUMN notify_email text;
ALTER TABLE refunds ADD COLUMN notify_name text;

-- Issue 31 (zero-log): a session's last use is kept to the day (UTC midnight), never the time, so the
-- sessions of a desktop app that checks in when it connects are not a connection timeline. The CHECK
-- makes the database refuse a time of day, whatever code writes the row.
UPDATE sessions SET last_used_at = date_trunc('day', last_used_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
ALTER TABLE sessions ALTER COLUMN last_used_at SET DEFAULT (date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC');
ALTER TABLE sessions ADD CONSTRAINT sessions_last_used_day CHECK (last_used_at = date_trunc('day', last_used_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC');

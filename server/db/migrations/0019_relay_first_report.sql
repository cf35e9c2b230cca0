-- Issue 48: a server's measured uptime counts from its first health report, not from the midnight before it
-- (a server first heard at 21:44 showed 0.07 % that evening). relay_servers.first_reported_at: when its first
-- report arrived (set once, by the first report).
ALTER TABLE relay_servers ADD COLUMN first_reported_at timestamptz;
-- Servers that reported before this column: the time of their first report was not kept. Their earliest tallied
-- day counted n report intervals (minutes), all of them after the first report, so it came at the latest n
-- minutes before that day's end (or before the minute after the latest report, when that day is the latest):
-- that bound is what is kept.
UPDATE relay_servers s SET first_reported_at = (
  SELECT least(((d.day + 1)::timestamp AT TIME ZONE 'UTC'), s.reported_at + interval '1 minute') - d.intervals * interval '1 minute'
  FROM relay_uptime_days d WHERE d.server_id = s.server_id ORDER BY d.day LIMIT 1)
WHERE s.reported_at IS NOT NULL;

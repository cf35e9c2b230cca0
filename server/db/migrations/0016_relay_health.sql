-- Issue 47 (item 2): every listed key carries when its access ends if nothing else happens (expiresAt), and
-- the relays are woken by a notification when the peer list's version changes (a long poll, design §7f).
-- wireguard_keys.listed_until: the listed key's expiry as the list answers it (null while not listed);
-- peer_changes.expires_at: the same for an `added` change. A change of a listed key's expiry (a renewal) is an
-- `added` change of its own, so every relay learns the new date.
ALTER TABLE wireguard_keys ADD COLUMN listed_until timestamptz;
ALTER TABLE peer_changes ADD COLUMN expires_at timestamptz;
UPDATE wireguard_keys k SET listed_until = least(k.expires_at, (
  SELECT max(CASE WHEN s.current_period_end IS NULL THEN now() + interval '366 days'
                  WHEN s.status = 'past_due' THEN s.current_period_end + interval '33 days'
                  ELSE s.current_period_end + interval '3 days' END)
  FROM subscriptions s WHERE s.user_id = k.user_id AND s.status IN ('active', 'past_due')))
WHERE k.listed;
UPDATE wireguard_keys SET listed_until = now() + interval '3 days' WHERE listed AND listed_until IS NULL;
-- The change log written before carries no expiry: every relay fetches the full list once (410 below the floor).
DELETE FROM peer_changes;
UPDATE peer_log SET floor = version;

CREATE FUNCTION veil_peer_log_notify() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('veil_peer_log', NEW.version::text);
  RETURN NEW;
END
$fn$;
CREATE TRIGGER peer_log_version_changes AFTER UPDATE ON peer_log FOR EACH ROW WHEN (NEW.version IS DISTINCT FROM OLD.version)
  EXECUTE FUNCTION veil_peer_log_notify();

-- relay_servers: per catalogue server (the relay token's id), ONLY the latest health report (aggregate counts,
-- never a key, an endpoint or a handshake time) and the highest peer-list version the server confirmed having
-- applied (a poll `since` it, or its report's versionApplied): a removal is confirmed when every server has.
CREATE TABLE relay_servers (
  server_id text PRIMARY KEY,
  confirmed_version bigint NOT NULL DEFAULT 0,
  reported_at timestamptz,
  version_applied bigint,
  peers integer,
  active_peers integer,
  uptime_seconds bigint,
  agent_version text,
  last_interval bigint
);

-- relay_uptime_days: the daily up/down tally: per server and UTC day, how many report intervals (minutes) had
-- a report. Uptime of a day = intervals / 1440.
CREATE TABLE relay_uptime_days (
  server_id text NOT NULL,
  day date NOT NULL,
  intervals integer NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, day)
);

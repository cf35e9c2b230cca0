-- Issue 29: WireGuard keys are devices, and the VPN servers poll who may connect.
-- wireguard_keys: a configuration made on the account page (session_id null), or the one key a desktop
-- app session attached to itself (session_id set; it dies with that session). The public key and both
-- tunnel addresses are unique across every account: the constraints, not a check before the insert,
-- keep two instances from handing out one address twice. `listed`: the key is in the relays' peer list
-- (its account has access); flipped only together with a peer_changes row. `expires_at`: the desktop
-- session's end. Nothing about use is stored: no endpoint, handshake or traffic.
CREATE TABLE wireguard_keys (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id text UNIQUE REFERENCES sessions(id) ON DELETE CASCADE,
  name text NOT NULL,
  public_key text NOT NULL UNIQUE,
  ipv4_address text NOT NULL UNIQUE,
  ipv6_address text NOT NULL UNIQUE,
  listed boolean NOT NULL DEFAULT false,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wireguard_keys_user_id_idx ON wireguard_keys (user_id);
CREATE INDEX wireguard_keys_listed_expiry_idx ON wireguard_keys (expires_at) WHERE listed AND expires_at IS NOT NULL;

-- peer_log: the peer list's version (one row). Every change to the list bumps it in the changing
-- transaction; the row lock makes versions commit in order, so a relay that saw version N never misses
-- a change numbered below N. `floor`: changes up to it were pruned, so `since` below it answers 410.
CREATE TABLE peer_log (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  version bigint NOT NULL DEFAULT 0,
  floor bigint NOT NULL DEFAULT 0
);
INSERT INTO peer_log (id) VALUES (1);

-- peer_changes: what a `since` poll reads (by version, never every device).
CREATE TABLE peer_changes (
  version bigint PRIMARY KEY,
  public_key text NOT NULL,
  ipv4_address text NOT NULL,
  ipv6_address text NOT NULL,
  change text NOT NULL CHECK (change IN ('added', 'removed')),
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX peer_changes_changed_at_idx ON peer_changes (changed_at);

-- removed_wireguard_keys: a key revoked, rotated away or deleted cannot be registered again for 5 minutes
-- (a relay may still hold it until its next poll). Pruned as new removals are written.
CREATE TABLE removed_wireguard_keys (
  public_key text PRIMARY KEY,
  removed_at timestamptz NOT NULL
);
CREATE INDEX removed_wireguard_keys_removed_at_idx ON removed_wireguard_keys (removed_at);

-- The grace sweep (server/domain/devices/peer-access.ts) finds active subscriptions lapsed without an event.
CREATE INDEX subscriptions_status_period_end_idx ON subscriptions (status, current_period_end);

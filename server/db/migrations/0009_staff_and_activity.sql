-- Staff, the audit trail and account activity (issue 30; design 7d).

-- account_activity: what happened to an account, as its owner sees it (POST /api/account/activity).
-- Day precision only (zero-log: no time of day), no IP address, no user agent; detail holds names and
-- amounts, never a token or a staff member. It goes with the account (ON DELETE CASCADE).
CREATE TABLE account_activity (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind text NOT NULL,
  actor text NOT NULL CHECK (actor IN ('customer', 'support')),
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  occurred_on date NOT NULL DEFAULT current_date
);
CREATE INDEX account_activity_user ON account_activity (user_id, occurred_on DESC, id DESC);

-- staff_actions: one row per staff action, done, refused or failed, written in the transaction of the
-- change it records. Append-only: the trigger below refuses UPDATE and DELETE. The target account is
-- named only by the SHA-256 of its id (the hash deleted_accounts keeps), never by the id itself, so a
-- deleted customer's rows stay as they are and no longer name anyone (docs/decisions.md).
CREATE TABLE staff_actions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  staff_uid text NOT NULL,
  staff_email text NOT NULL,
  role text NOT NULL CHECK (role IN ('support', 'admin')),
  action text NOT NULL,
  target_hash text NOT NULL,
  reason text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  outcome text NOT NULL CHECK (outcome IN ('done', 'refused', 'failed')),
  outcome_code text
);
CREATE INDEX staff_actions_target ON staff_actions (target_hash, id DESC);

CREATE FUNCTION staff_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'staff_actions is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$fn$;
CREATE TRIGGER staff_actions_append_only BEFORE UPDATE OR DELETE ON staff_actions
  FOR EACH STATEMENT EXECUTE FUNCTION staff_actions_append_only();

-- Disabled by staff: no sign-in, no session, no device on the relay list until enabled again.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;

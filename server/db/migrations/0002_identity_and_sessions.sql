-- Issue 10 §6: a hand-off token is bound to the session that minted it, so it dies with that session
-- (sign-out revokes it; deletion removes it). Tokens minted before this migration have no session and
-- no longer redeem; they lived two minutes anyway.
ALTER TABLE handoff_tokens ADD COLUMN session_id text REFERENCES sessions (id) ON DELETE CASCADE;
CREATE INDEX handoff_tokens_session_id_idx ON handoff_tokens (session_id);
-- Counting an account's live desktop sessions (the device limit) at each redemption.
CREATE INDEX sessions_user_kind_idx ON sessions (user_id, kind);

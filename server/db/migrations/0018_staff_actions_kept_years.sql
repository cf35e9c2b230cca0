-- Staff reasons and search texts are kept for a stated time (issue 46, item 11; contract/retention.ts,
-- STAFF_AUDIT_YEARS): a row may be deleted once it is older than 6 years (the daily clean-up does), never
-- before; UPDATE and TRUNCATE stay refused whoever asks (0009, 0017). DELETE is now checked row by row.
CREATE FUNCTION staff_actions_expired_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF OLD.occurred_at > now() - interval '6 years' THEN
    RAISE EXCEPTION 'staff_actions is append-only: DELETE refused' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END
$fn$;
DROP TRIGGER staff_actions_append_only ON staff_actions;
CREATE TRIGGER staff_actions_append_only BEFORE UPDATE ON staff_actions
  FOR EACH STATEMENT EXECUTE FUNCTION staff_actions_append_only();
CREATE TRIGGER staff_actions_expired_only BEFORE DELETE ON staff_actions
  FOR EACH ROW EXECUTE FUNCTION staff_actions_expired_only();

-- The audit trail holds against the API's own role (issue 46, item 11): TRUNCATE fires no DELETE trigger,
-- so it gets a trigger of its own (PostgreSQL 15 and PGlite alike); UPDATE and DELETE stay refused by
-- staff_actions_append_only (0009). The API's role has no TRUNCATE, DDL or ownership of the table either
-- (server/db/api-role.sql, docs/operations.md).
CREATE TRIGGER staff_actions_no_truncate BEFORE TRUNCATE ON staff_actions
  FOR EACH STATEMENT EXECUTE FUNCTION staff_actions_append_only();

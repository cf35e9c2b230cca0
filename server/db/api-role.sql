-- The API's own PostgreSQL role (issue 46, item 11; docs/operations.md "Database roles"), run by the owner
-- role after `npm run db:migrate` (and after each later one: new tables need their grants), with psql
-- variables `api_role` (an existing LOGIN role), `app_schema` (the app's tables, "public") and `job_schema`
-- (pg-boss's, "pgboss"):
--   psql "$OWNER_DATABASE_URL" -v api_role=veil_api -v app_schema=public -v job_schema=pgboss -f server/db/api-role.sql
-- The API reads and writes rows; it owns nothing in the app's schema, so it can neither ALTER, DROP nor
-- TRUNCATE a table, and on staff_actions it may only read and append. The job queue's schema is its own:
-- pg-boss makes its tables there at its first start, and one per queue as queues are declared.
GRANT USAGE ON SCHEMA :"app_schema" TO :"api_role";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA :"app_schema" TO :"api_role";
-- DELETE stays granted for the daily clean-up: the table's trigger refuses any row younger than its stated years.
REVOKE UPDATE, TRUNCATE, REFERENCES, TRIGGER ON :"app_schema".staff_actions FROM :"api_role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA :"app_schema" TO :"api_role";
CREATE SCHEMA IF NOT EXISTS :"job_schema";
ALTER SCHEMA :"job_schema" OWNER TO :"api_role";

/**
 * Issue 46, item 11: the audit trail holds against the API's own role. On PostgreSQL, migrations run as
 * the owner (`npm run db:migrate`'s openDatabase), server/db/api-role.sql gives the API its role, and the
 * API (MIGRATIONS=check) runs as that role: it reads and appends staff_actions and works its job queue, but
 * cannot alter, update, truncate or drop the table, nor delete a row younger than its stated 6 years. Skipped, saying so, when no PostgreSQL answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { startJobQueue } from '../../server/jobs/queue';
import { postgresAvailable, TEST_DATABASE_URL } from '../support/server-harness';

const available = await postgresAvailable();
if (!available) console.log(`[database-roles] no PostgreSQL at ${TEST_DATABASE_URL}: the API role's rights are not tested here`);

const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const role = `veil_api_${stamp}`;
const schema = `roles_${stamp}`;
const jobSchema = `${schema}_jobs`;
const q = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The URL of the same database, signed in as `user` (the test server trusts local connections). */
function urlAs(user: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.username = user;
  url.password = '';
  return url.toString();
}

describe.skipIf(!available)('the API as a role of its own on PostgreSQL', () => {
  const owner = new pg.Client({ connectionString: TEST_DATABASE_URL });
  let api: Database;

  beforeAll(async () => {
    await owner.connect();
    await owner.query(`CREATE ROLE ${q(role)} LOGIN`);
    // The owner's step: every migration (the app's schema and the job queue's made by the owner).
    await (await openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema })).close();
    // The documented grants, with psql's variables filled in.
    const grants = readFileSync(join(import.meta.dirname, '../../server/db/api-role.sql'), 'utf8')
      .replace(/:"api_role"/g, q(role))
      .replace(/:"app_schema"/g, q(schema))
      .replace(/:"job_schema"/g, q(jobSchema));
    await owner.query(grants);
    api = await openDatabase({ kind: 'postgres', url: urlAs(role), schema }, { migrations: 'check' });
  });

  afterAll(async () => {
    await api?.close();
    await owner.query(`DROP SCHEMA IF EXISTS ${q(schema)} CASCADE; DROP SCHEMA IF EXISTS ${q(jobSchema)} CASCADE`);
    await owner.query(`DROP OWNED BY ${q(role)} CASCADE; DROP ROLE IF EXISTS ${q(role)}`);
    await owner.end();
  });

  test('reads and appends staff_actions, and works its job queue', async () => {
    await api.exec(
      `INSERT INTO staff_actions (staff_uid, staff_email, role, action, target_hash, reason, outcome) VALUES ('uid', 'agent@veil.test', 'support', 'resend_receipt', '${'a'.repeat(64)}', 'Customer asked', 'done')`,
    );
    expect(await api.statement('roles_count', 'SELECT count(*)::int FROM staff_actions')([])).toEqual([[1]]);
    const jobs = await startJobQueue(api, { pollSeconds: 0.5 });
    await jobs.declare('roles-test');
    await jobs.stop();
  });

  test.each([
    ['ALTER', 'ALTER TABLE staff_actions ADD COLUMN rewritten text', /must be owner/],
    ['UPDATE', "UPDATE staff_actions SET reason = 'rewritten'", /permission denied/],
    // DELETE is granted for the daily clean-up of rows past their 6 years; younger ones the table refuses.
    ['DELETE', 'DELETE FROM staff_actions', /append-only: DELETE refused/],
    ['TRUNCATE', 'TRUNCATE staff_actions', /permission denied/],
    ['DROP', 'DROP TABLE staff_actions', /must be owner/],
    ['DISABLE TRIGGER', 'ALTER TABLE staff_actions DISABLE TRIGGER staff_actions_append_only', /must be owner/],
  ])('cannot %s the table', async (_what, statement, refusal) => {
    await expect(api.exec(statement)).rejects.toThrow(refusal);
    expect(await api.statement(`roles_kept_${_what.replace(/ /g, '_')}`, 'SELECT count(*)::int, min(reason) FROM staff_actions')([])).toEqual([[1, 'Customer asked']]);
  });

  test('an API that only checks refuses to start on a database missing a migration, naming the step', async () => {
    const empty = `${schema}_empty`;
    await owner.query(`CREATE SCHEMA ${q(empty)}`);
    try {
      await expect(openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema: empty }, { migrations: 'check' })).rejects.toThrow(/npm run db:migrate/);
    } finally {
      await owner.query(`DROP SCHEMA ${q(empty)} CASCADE`);
    }
  });
});

/**
 * Issue 31, item 2: the account's jobs leave with the account. An e-mail owed and sent (here completed
 * unsent, MAIL=off) names the account in the job queue; once the account is deleted, no job of the
 * queue's table names it. On PGlite and PostgreSQL. And a deletion that PostgreSQL aborts for a deadlock
 * runs again instead of answering 500 (a fresh-clone CI run met one, issue 50).
 */
import pg from 'pg';
import { expect, inject, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { mintProviderUser } from '../support/auth-emulator';
import { call, TEST_DATABASE_URL } from '../support/server-harness';
import { startTestMailServer, type TestMailServer } from '../support/maildev';
import { startFreezableProxy, type FreezableProxy } from '../support/tcp-stand-ins';

const emulatorHost = inject('authEmulatorHost');

describeApi('deleting an account', { layer: 'sql', emulatorHost, reset: false }, (api, driver) => {
  test('removes its finished jobs from the job queue', async () => {
    const email = `jobs.${driver}${Date.now()}@example.com`;
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email, name: 'Jobs Leaver' });
    const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const sessionToken = signIn.body.sessionToken as string;
    const userId = (signIn.body.user as { id: string }).id;
    const handoffToken = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body.handoffToken as string;
    expect((await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Laptop' })).status).toBe(200);

    const jobsNaming = api.database.statement('jobs_naming_account', `SELECT state FROM "${api.database.jobSchema}".job WHERE data->>'userId' = $1`);
    // The new-device notice is owed, then done.
    await expect.poll(async () => (await jobsNaming([userId])).map(([state]) => state), { timeout: 20_000 }).toEqual(['completed']);

    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
    expect(await jobsNaming([userId])).toEqual([]);
  });

  // A deadlock needs two connections: PostgreSQL only (PGlite has one).
  if (driver === 'postgres') {
    test('is run again when PostgreSQL aborts it for a deadlock with another transaction: 200, and the account is gone', async () => {
      const email = `deadlocked.${Date.now()}@example.com`;
      const minted = await mintProviderUser(`http://${emulatorHost}`, { email, name: 'Deadlocked Leaver' });
      const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
      const sessionToken = signIn.body.sessionToken as string;
      const userId = (signIn.body.user as { id: string }).id;
      // Another transaction (as a refund job recording its result): it holds something the deletion writes
      // after locking the account row, then waits for that row itself. Each waiter looks for a deadlock once,
      // deadlock_timeout (1 s) after it began to wait, and PostgreSQL aborts the one that finds it. So the
      // other asks for the row as soon as the deletion waits, from inside PostgreSQL (a loop, no round trip
      // to this process, which took over a second once on a busy machine, and the deletion's look then found
      // no deadlock yet), and looks late itself where it may (deadlock_timeout is a superuser's setting).
      expect(userId).toMatch(/^usr_[0-9a-f]{32}$/);
      const other = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${api.schema}` });
      await other.connect();
      try {
        await other.query(`SET deadlock_timeout = '30s'`).catch(() => undefined);
        await other.query('BEGIN');
        await other.query('LOCK TABLE deleted_accounts IN SHARE ROW EXCLUSIVE MODE');
        const deleting = call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken });
        await other.query(`DO $$ BEGIN
          FOR attempt IN 1..2000 LOOP
            EXIT WHEN EXISTS (SELECT 1 FROM pg_locks WHERE NOT granted AND relation = 'deleted_accounts'::regclass);
            PERFORM pg_sleep(0.005);
          END LOOP;
          PERFORM 1 FROM users WHERE id = '${userId}' FOR KEY SHARE;
        END $$`);
        await other.query('ROLLBACK');
        expect((await deleting).status).toBe(200);
      } finally {
        await other.end();
      }
      expect(await api.database.statement('account_left', 'SELECT id FROM users WHERE id = $1')([userId])).toEqual([]);
    });
  }
});

/**
 * Issue 46, item 12: an e-mail being sent at the moment its account is deleted (its job running, so not
 * one deletion removes) leaves no id behind once it ends. The mail server is reached through a proxy
 * frozen while the account is deleted, so the job is running then.
 */
let proxy: FreezableProxy;
let mailServer: TestMailServer;
describeApi(
  'deleting an account while one of its e-mails is being sent',
  {
    layer: 'sql',
    emulatorHost,
    setUp: async () => {
      mailServer = await startTestMailServer();
      proxy = await startFreezableProxy({ host: '127.0.0.1', port: Number(new URL(mailServer.smtpUrl).port) });
      // Long enough timeouts that the frozen send waits for the thaw rather than failing.
      return { env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}/?greetingTimeout=60000&socketTimeout=60000`, MAIL_FROM: 'Veil <noreply@veil.test>' } };
    },
    tearDown: async () => {
      await proxy.close();
      await mailServer.stop();
    },
  },
  (api, driver) => {
    test('leaves no job naming the account or its device once the e-mail is sent', async () => {
      const email = `running.${driver}${Date.now()}@example.com`;
      const minted = await mintProviderUser(`http://${emulatorHost}`, { email, name: 'Running Leaver' });
      const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
      const sessionToken = signIn.body.sessionToken as string;
      const userId = (signIn.body.user as { id: string }).id;
      const job = `"${api.database.jobSchema}".job`;
      const jobsNaming = api.database.statement('running_jobs_naming_account', `SELECT id, state FROM ${job} WHERE name = 'mail' AND data->>'userId' = $1`);

      proxy.freeze();
      const handoffToken = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body.handoffToken as string;
      const desktop = await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'Laptop' });
      expect(desktop.status).toBe(200);
      // The new-device notice is being sent (its job running), held at the frozen mail server.
      await expect.poll(async () => (await jobsNaming([userId])).map(([, state]) => state), { timeout: 20_000 }).toEqual(['active']);
      const [[jobId]] = (await jobsNaming([userId])) as [[string]];

      expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
      proxy.thaw();

      // Once the job has ended (sent), nothing of it names the account or the device.
      const jobRow = api.database.statement('running_job_row', `SELECT state, data::text FROM ${job} WHERE id = $1`);
      await expect.poll(async () => (await jobRow([jobId]))[0]?.[0] ?? 'gone', { timeout: 30_000 }).not.toBe('active');
      const [row] = await jobRow([jobId]);
      if (row) {
        expect(row[1]).not.toContain(userId);
        expect(row[1]).not.toContain('ses_');
      }
      expect(await jobsNaming([userId])).toEqual([]);
    });
  },
);

/**
 * Issue 31, item 2: the account's jobs leave with the account. An e-mail owed and sent (here completed
 * unsent, MAIL=off) names the account in the job queue; once the account is deleted, no job of the
 * queue's table names it. On PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { mintProviderUser } from '../support/auth-emulator';
import { call, createTestApi, postgresAvailable, type Driver, type TestApi } from '../support/server-harness';

const emulatorHost = inject('authEmulatorHost');
const drivers: Driver[] = (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];

describe.each(drivers)('deleting an account on %s', (driver) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await createTestApi({ driver, emulatorHost });
  });
  afterAll(async () => {
    await api?.close();
  });

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
});

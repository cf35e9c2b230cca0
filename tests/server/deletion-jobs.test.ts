/**
 * Issue 31, item 2: the account's jobs leave with the account. An e-mail owed and sent (here completed
 * unsent, MAIL=off) names the account in the job queue; once the account is deleted, no job of the
 * queue's table names it. On PGlite and PostgreSQL.
 */
import { expect, inject, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { mintProviderUser } from '../support/auth-emulator';
import { call } from '../support/server-harness';

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
});

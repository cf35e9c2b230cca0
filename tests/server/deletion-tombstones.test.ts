/**
 * The tombstone a deleted account leaves (hashes of its identity subject and e-mail address) is kept for
 * the cool-down only, as the privacy policy says: tombstones whose cool-down is over are deleted before a
 * new account is checked against them, and at start-up.
 */
import { rmSync } from 'node:fs';
import { expect, inject, test } from 'vitest';
import { deletionTombstones } from '../../server/db/schema';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { describeApi } from '../support/describe-api';
import { call, createTestApi, migratedDataDir, type TestApi } from '../support/server-harness';

const emulatorHost = inject('authEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;
const HOUR_MS = 3_600_000;



const storedHashes = async (api: TestApi) =>
  (await api.database.db.select().from(deletionTombstones)).map((tombstone) => tombstone.subjectHash).sort();

describeApi('deletion tombstones', { layer: 'sql', emulatorHost, env: { DELETED_ACCOUNT_COOLDOWN: '1h' } }, (api) => {

  test('tombstones past the cool-down are deleted when the next new account signs up; fresh ones stay', async () => {
    const minted = await mintProviderUser(emulatorUrl, { email: uniqueAddress('leaving') });
    const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const user = signedIn.body.user as { id: string; email: string };
    const deleted = await call(api.app, 'DELETE', '/api/auth/delete-account', {
      email: user.email,
      userId: user.id,
      sessionToken: signedIn.body.sessionToken,
    });
    expect(deleted.status).toBe(200);
    const leftBehind = await storedHashes(api);
    expect(leftBehind).toHaveLength(2);

    // The deletion was an hour and a minute ago; another account was deleted a minute ago.
    await api.database.db.update(deletionTombstones).set({ deletedAt: new Date(Date.now() - HOUR_MS - 60_000) });
    await api.database.db.insert(deletionTombstones).values({ subjectHash: 'deleted-a-minute-ago', deletedAt: new Date(Date.now() - 60_000) });

    const newcomer = await mintProviderUser(emulatorUrl, { email: uniqueAddress('newcomer') });
    expect((await call(api.app, 'POST', '/api/auth/google/signin', { idToken: newcomer.idToken })).status).toBe(200);
    expect(await storedHashes(api)).toEqual(['deleted-a-minute-ago']);
  });
});

test('at start-up the API deletes the tombstones whose cool-down ended while it was down', async () => {
  const dataDir = migratedDataDir('veil-tombstones-');
  try {
    const env = { DELETED_ACCOUNT_COOLDOWN: '1h' };
    const first = await createTestApi({ driver: 'pglite', dataDir, emulatorHost, env });
    await first.database.db.insert(deletionTombstones).values([
      { subjectHash: 'cool-down-over', deletedAt: new Date(Date.now() - 2 * HOUR_MS) },
      { subjectHash: 'still-cooling-down', deletedAt: new Date(Date.now() - 30 * 60_000) },
    ]);
    await first.close();

    const restarted = await createTestApi({ driver: 'pglite', dataDir, emulatorHost, env });
    try {
      expect(await storedHashes(restarted)).toEqual(['still-cooling-down']);
    } finally {
      await restarted.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * `npm run staff:grant` (issue 30, item 1) against the test Auth emulator: it sets the `staff` claim of the
 * user with that address, removes it with `none` (revoking the user's tokens, so the old token is refused
 * at once), refuses a role outside STAFF_EMAIL_DOMAIN and an unknown address, and says how to call it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, test } from 'vitest';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { emulatorAdmin } from '../support/staff';

const emulatorHost = inject('authEmulatorHost');
const run = promisify(execFile);

async function grant(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/staff-grant.ts', ...args], {
      env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, FIREBASE_PROJECT_ID: 'demo-veil', ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('npm run staff:grant', () => {
  test('grants, then removes with revocation; refuses bad input', async () => {
    const email = uniqueAddress('agent');
    const first = await mintProviderUser(`http://${emulatorHost}`, { email });
    const admin = emulatorAdmin(emulatorHost);

    expect(await grant([email, 'admin'])).toEqual({ code: 0, output: `${email} is now admin; they sign in again (at /staff) to use it\n` });
    expect((await admin.getUser(first.uid)).customClaims).toEqual({ staff: 'admin' });
    const granted = await mintProviderUser(`http://${emulatorHost}`, { email });
    expect((await admin.verifyIdToken(granted.idToken)).staff).toBe('admin');

    await new Promise((resolve) => setTimeout(resolve, 1100)); // revocation has one-second precision
    expect((await grant([email, 'none'])).code).toBe(0);
    expect((await admin.getUser(first.uid)).customClaims ?? {}).toEqual({});
    await expect(admin.verifyIdToken(granted.idToken, true)).rejects.toMatchObject({ code: 'auth/id-token-revoked' });

    expect(await grant([email, 'admin'], { STAFF_EMAIL_DOMAIN: 'veil.example' })).toMatchObject({ code: 1, output: expect.stringContaining('veil.example') });
    expect(await grant(['nobody@example.com', 'support'])).toMatchObject({ code: 1, output: expect.stringContaining('must sign in once first') });
    expect(await grant([email, 'owner'])).toMatchObject({ code: 2, output: expect.stringContaining('usage: npm run staff:grant') });
  }, 60_000);
});

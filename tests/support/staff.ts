/**
 * Staff members on the test Auth emulator: a Google user given the `staff` claim with firebase-admin (as
 * `npm run staff:grant` does), and a fresh ID token carrying it.
 */
import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { EMULATOR_PROJECT_ID, mintProviderUser, uniqueAddress, type MintedUser } from './auth-emulator';

export function emulatorAdmin(emulatorHost: string) {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  const name = 'staff-tests';
  return getAuth(getApps().find((app) => app.name === name) ?? initializeApp({ projectId: EMULATOR_PROJECT_ID }, name));
}

/** A signed-in Google user of the emulator with `role` as its claim (none: a plain customer), and a token minted after it. */
export async function staffUser(emulatorHost: string, role: 'support' | 'admin' | null, label = role ?? 'customer'): Promise<MintedUser> {
  const url = `http://${emulatorHost}`;
  const email = uniqueAddress(label);
  const first = await mintProviderUser(url, { email });
  if (!role) return first;
  await emulatorAdmin(emulatorHost).setCustomUserClaims(first.uid, { staff: role });
  // The claim is in tokens minted after it: sign in again, as a staff member does.
  return mintProviderUser(url, { email });
}

/** The same person's next ID token (a new sign-in). */
export function freshToken(emulatorHost: string, email: string): Promise<MintedUser> {
  return mintProviderUser(`http://${emulatorHost}`, { email });
}

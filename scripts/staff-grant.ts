/**
 * `npm run staff:grant -- <email> support|admin|none` (issue 30, item 1): sets or removes the Firebase
 * custom claim `staff` of the user with that e-mail address, then revokes the user's refresh tokens, so
 * the change takes effect at once: a removed role ends with the next staff call (they verify with
 * revocation checked), a new one after the staff member signs in again.
 *
 * Against the Auth emulator `npm start` runs (FIREBASE_AUTH_EMULATOR_HOST, default 127.0.0.1:9099) unless
 * FIREBASE_USE_EMULATOR=false; then the real project FIREBASE_PROJECT_ID with Google credentials
 * (GOOGLE_APPLICATION_CREDENTIALS). With STAFF_EMAIL_DOMAIN set, only addresses at that domain get a role.
 */
import { initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { STAFF_ROLES } from '../contract/staff.ts';

// The roles of contract/staff.ts, and `none` to remove one.
const ROLES = [...STAFF_ROLES, 'none'] as const;
type Grant = (typeof ROLES)[number];

const [email, role] = process.argv.slice(2);
if (!email || !role || !(ROLES as readonly string[]).includes(role)) {
  console.error(`usage: npm run staff:grant -- <email> ${ROLES.join('|')}`);
  process.exit(2);
}

const useEmulator = process.env.FIREBASE_USE_EMULATOR !== 'false';
if (useEmulator) process.env.FIREBASE_AUTH_EMULATOR_HOST ||= '127.0.0.1:9099';
else delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
const projectId = process.env.FIREBASE_PROJECT_ID ?? 'demo-veil';
const domain = process.env.STAFF_EMAIL_DOMAIN?.trim().replace(/^@/, '').toLowerCase();

async function grant(address: string, grant: Grant): Promise<number> {
  if (grant !== 'none' && domain && !address.toLowerCase().endsWith(`@${domain}`)) {
    console.error(`refused: staff must have an address at ${domain} (STAFF_EMAIL_DOMAIN)`);
    return 1;
  }
  const auth = getAuth(initializeApp({ projectId }));
  let user;
  try {
    user = await auth.getUserByEmail(address);
  } catch (error) {
    if ((error as { code?: string }).code === 'auth/user-not-found') {
      console.error(`no user with that address in ${projectId}${useEmulator ? ' (the Auth emulator)' : ''}: they must sign in once first`);
      return 1;
    }
    throw error;
  }
  const { staff: _previous, ...otherClaims } = user.customClaims ?? {};
  await auth.setCustomUserClaims(user.uid, grant === 'none' ? otherClaims : { ...otherClaims, staff: grant });
  // Tokens issued before now stop working where revocation is checked (every staff call): a role ends at once.
  await auth.revokeRefreshTokens(user.uid);
  console.log(
    grant === 'none'
      ? `removed the staff role of ${address}; their sessions are signed out`
      : `${address} is now ${grant}; they sign in again (at /staff) to use it`,
  );
  return 0;
}

process.exit(await grant(email, role as Grant));

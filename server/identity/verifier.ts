/**
 * Identity: Google and Apple sign-ins both arrive as Firebase ID tokens (design §7), checked with
 * firebase-admin. With FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin accepts the emulator's unsigned
 * tokens, which is why production refuses to start with it (server/production-checks.ts).
 */
import { isStaffRole } from '../../contract/staff.ts';
import type { VerifiedIdentity } from '../domain/accounts/accounts.ts';
import { ApiFailure, failures } from '../domain/errors.ts';
import { firebaseAuth } from './firebase-auth.ts';

interface VerifyOptions {
  /**
   * Also ask Firebase whether the user was disabled or signed out everywhere since the token was issued
   * (one more request): for the calls that move money.
   */
  checkRevoked?: boolean;
  /**
   * The sign-in route's provider: a token from any other Firebase sign-in method (anonymous, password,
   * the other provider) is refused with 403. Without it any provider passes (the subscription calls,
   * whose account already exists).
   */
  provider?: 'google' | 'apple';
}

const SIGN_IN_PROVIDERS = { google: 'google.com', apple: 'apple.com' } as const;

export interface IdentityVerifier {
  /** The token's identity, a 401 failure for an invalid, expired, revoked or forged token, 503 when Firebase cannot be asked. */
  verify(idToken: string, options?: VerifyOptions): Promise<VerifiedIdentity>;
}

/** firebase-admin's codes for "could not check", as opposed to "checked, and it is bad". */
function isUnavailable(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return false;
  if (code.startsWith('app/')) return true; // credentials or network of the Admin SDK itself
  if (code === 'auth/internal-error') return true;
  // Fetching Google's public keys failed: reported as an argument error, but it is ours to retry.
  return code === 'auth/argument-error' && typeof message === 'string' && message.startsWith('Error while making request');
}

export function createFirebaseVerifier(projectId: string, emulatorHost: string | undefined): IdentityVerifier {
  const auth = firebaseAuth(projectId, emulatorHost);
  return {
    async verify(idToken, options = {}) {
      try {
        const decoded = await auth.verifyIdToken(idToken, options.checkRevoked === true);
        if (options.provider && decoded.firebase?.sign_in_provider !== SIGN_IN_PROVIDERS[options.provider]) {
          throw failures.wrongProvider(options.provider);
        }
        const verifiedEmail = decoded.email_verified === true && typeof decoded.email === 'string' ? decoded.email : null;
        return {
          subject: decoded.uid,
          // An address the provider has not verified is anyone's claim: never an account's e-mail.
          email: verifiedEmail,
          name: typeof decoded.name === 'string' ? decoded.name : null,
          authTime: decoded.auth_time,
          // Set only by `npm run staff:grant` (firebase-admin custom claims); any other value is no role.
          staffRole: isStaffRole(decoded.staff) ? decoded.staff : null,
        };
      } catch (error) {
        if (error instanceof ApiFailure) throw error;
        if (isUnavailable(error)) throw failures.identityUnavailable();
        throw failures.invalidToken();
      }
    },
  };
}

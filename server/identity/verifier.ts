/**
 * Identity: Google and Apple sign-ins both arrive as Firebase ID tokens (design §7), checked with
 * firebase-admin. With FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin accepts the emulator's unsigned
 * tokens, which is why production must never set it.
 */
import { getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import type { VerifiedIdentity } from '../domain/accounts.ts';
import { failures } from '../domain/errors.ts';

export interface IdentityVerifier {
  /** The token's identity, or a 401 failure for an invalid, expired or forged token. */
  verify(idToken: string): Promise<VerifiedIdentity>;
}

export function createFirebaseVerifier(projectId: string, emulatorHost: string | undefined): IdentityVerifier {
  // firebase-admin reads the emulator host from the environment only.
  if (emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  const name = `veil-${projectId}`;
  const app: App = getApps().find((candidate) => candidate.name === name) ?? initializeApp({ projectId }, name);
  const auth = getAuth(app);
  return {
    async verify(idToken) {
      try {
        const decoded = await auth.verifyIdToken(idToken);
        return {
          subject: decoded.uid,
          email: typeof decoded.email === 'string' ? decoded.email : null,
          name: typeof decoded.name === 'string' ? decoded.name : null,
        };
      } catch (error) {
        // Fetching Google's public keys can fail: that is ours to retry, not the customer's bad token.
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('app/')) throw failures.identityUnavailable();
        throw failures.invalidToken();
      }
    },
  };
}

/**
 * The identity provider's admin side (firebase-admin) for support: disable and enable a user (issue 30,
 * item 5). A user the provider does not know (deleted there) has nothing to disable: not an error.
 */
import type { IdentityAdmin } from '../domain/accounts/identity-admin.ts';
import { firebaseAuth } from './firebase-auth.ts';

const ignoreUnknownUser = (error: unknown) => {
  if ((error as { code?: unknown }).code !== 'auth/user-not-found') throw error;
};

export function createFirebaseIdentityAdmin(projectId: string, emulatorHost: string | undefined): IdentityAdmin {
  const auth = firebaseAuth(projectId, emulatorHost);
  return {
    async disable(subject) {
      await auth.updateUser(subject, { disabled: true }).catch(ignoreUnknownUser);
      await auth.revokeRefreshTokens(subject).catch(ignoreUnknownUser);
    },
    async enable(subject) {
      await auth.updateUser(subject, { disabled: false }).catch(ignoreUnknownUser);
    },
  };
}

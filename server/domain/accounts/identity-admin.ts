/**
 * What the domain asks of the identity provider for support (issue 30, item 5): the port is the domain's;
 * server/identity/admin.ts implements it with firebase-admin (the Auth emulator under `npm start`).
 */
export interface IdentityAdmin {
  /** The user can no longer sign in, and every refresh token it holds is revoked (ID tokens die within the hour, or at once where revocation is checked). */
  disable(subject: string): Promise<void>;
  /** The user may sign in again. */
  enable(subject: string): Promise<void>;
}

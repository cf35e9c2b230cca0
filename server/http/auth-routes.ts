/** Sign-in, session, hand-off, device and deletion calls under /api/auth (design §7). */
import type { FastifyInstance } from 'fastify';
import {
  appleSignInRequestSchema,
  deleteAccountRequestSchema,
  devicesRequestSchema,
  googleSignInRequestSchema,
  handoffRedeemRequestSchema,
  handoffRequestSchema,
  revokeDeviceRequestSchema,
  signOutRequestSchema,
  verifyRequestSchema,
  type ApiUser,
} from '../../contract/api.ts';
import { DEVICE_LIMIT } from '../../contract/limits.ts';
import { findOrCreateUser, type SignInDetails, type UserRow } from '../domain/accounts.ts';
import { deleteAccount } from '../domain/deletion.ts';
import { failures } from '../domain/errors.ts';
import { createHandoff, redeemHandoff } from '../domain/handoff.ts';
import {
  authenticate,
  createSession,
  listDesktopSessions,
  prepareSessionCheck,
  revokeDesktopSession,
  revokeSession,
} from '../domain/sessions.ts';
import { findSubscription, toApiSubscription } from '../domain/subscriptions.ts';
import type { AppDeps } from './context.ts';
import { verifyResponseJsonSchema } from './response-schemas.ts';
import { parseBody } from './validation.ts';

export function toApiUser(user: UserRow): ApiUser {
  return { id: user.id, email: user.email, name: user.name, provider: user.provider };
}

export async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;
  const { config } = deps;

  async function signIn(idToken: string, details: SignInDetails) {
    const identity = await deps.verifier.verify(idToken, { provider: details.provider });
    const user = await findOrCreateUser(db, identity, details, config.deletedAccountCooldownSeconds);
    const { token } = await createSession(db, user.id, config.sessionTtlSeconds);
    return {
      success: true,
      sessionToken: token,
      user: toApiUser(user),
      subscription: toApiSubscription(await findSubscription(db, user.id)),
    };
  }

  app.post('/google/signin', async (request) => {
    const body = parseBody(googleSignInRequestSchema, request.body);
    return signIn(body.idToken, { provider: 'google' });
  });

  app.post('/apple/signin', async (request) => {
    const body = parseBody(appleSignInRequestSchema, request.body);
    // The body's e-mail is validated but never used: an account's e-mail comes from the verified token.
    return signIn(body.identityToken, { provider: 'apple', fullName: body.fullName });
  });

  const checkSession = prepareSessionCheck(db);
  app.post('/verify', { schema: { response: { 200: verifyResponseJsonSchema } } }, async (request) => {
    const body = parseBody(verifyRequestSchema, request.body);
    const { user, subscription } = await checkSession(body.sessionToken);
    await deps.limits.forAccount('verify', user.id);
    return { success: true, user: toApiUser(user), subscription: toApiSubscription(subscription) };
  });

  app.post('/signout', async (request) => {
    const body = parseBody(signOutRequestSchema, request.body);
    await revokeSession(db, body.sessionToken);
    // Signing out twice, or with a token already expired, is still a successful sign-out.
    return { success: true };
  });

  app.post('/handoff', async (request) => {
    const body = parseBody(handoffRequestSchema, request.body);
    const { session } = await authenticate(db, body.sessionToken);
    // Only a web session mints hand-offs: a desktop app cannot multiply itself onto further devices.
    const handoff = await createHandoff(db, session, config.handoffTtlSeconds);
    return { success: true, handoffToken: handoff.token, expiresAt: handoff.expiresAt.toISOString() };
  });

  app.post('/handoff/redeem', async (request) => {
    const body = parseBody(handoffRedeemRequestSchema, request.body);
    const { sessionToken } = await redeemHandoff(db, body.handoffToken, body.deviceName, {
      sessionTtlSeconds: config.sessionTtlSeconds,
      deviceLimit: DEVICE_LIMIT,
      accountUrl: `${config.publicUrl}/account`,
    });
    const { user } = await authenticate(db, sessionToken);
    return {
      success: true,
      sessionToken,
      user: toApiUser(user),
      subscription: toApiSubscription(await findSubscription(db, user.id)),
    };
  });

  // A desktop session may list the account's devices (the app can show where else it is signed in).
  app.post('/devices', async (request) => {
    const body = parseBody(devicesRequestSchema, request.body);
    const { user } = await authenticate(db, body.sessionToken);
    const devices = await listDesktopSessions(db, user.id);
    return {
      success: true,
      devices: devices.map((device) => ({
        id: device.id,
        deviceName: device.deviceName ?? 'Desktop app',
        createdAt: device.createdAt.toISOString(),
        lastUsedAt: device.lastUsedAt.toISOString(),
      })),
    };
  });

  app.post('/devices/revoke', async (request) => {
    const body = parseBody(revokeDeviceRequestSchema, request.body);
    const { user, session } = await authenticate(db, body.sessionToken);
    // Signing devices out is the account page's; a desktop app signs out itself with /signout.
    if (session.kind !== 'web') throw failures.websiteOnly();
    await revokeDesktopSession(db, user.id, body.deviceId);
    return { success: true };
  });

  app.delete('/delete-account', async (request) => {
    const body = parseBody(deleteAccountRequestSchema, request.body);
    await deleteAccount(db, deps.payments, body);
    return { success: true };
  });
}

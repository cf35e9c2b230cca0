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
import { findOrCreateUser, type SignInDetails, type UserRow } from '../domain/accounts.ts';
import { deleteAccount } from '../domain/deletion.ts';
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
    const identity = await deps.verifier.verify(idToken);
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
    return signIn(body.identityToken, { provider: 'apple', email: body.email, fullName: body.fullName });
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
    const { user } = await authenticate(db, body.sessionToken);
    const handoff = await createHandoff(db, user.id, config.handoffTtlSeconds);
    return { success: true, handoffToken: handoff.token, expiresAt: handoff.expiresAt.toISOString() };
  });

  app.post('/handoff/redeem', async (request) => {
    const body = parseBody(handoffRedeemRequestSchema, request.body);
    const userId = await redeemHandoff(db, body.handoffToken);
    const { token } = await createSession(db, userId, config.sessionTtlSeconds, { kind: 'desktop', name: body.deviceName });
    const { user } = await authenticate(db, token);
    return {
      success: true,
      sessionToken: token,
      user: toApiUser(user),
      subscription: toApiSubscription(await findSubscription(db, userId)),
    };
  });

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
    const { user } = await authenticate(db, body.sessionToken);
    await revokeDesktopSession(db, user.id, body.deviceId);
    return { success: true };
  });

  app.delete('/delete-account', async (request) => {
    const body = parseBody(deleteAccountRequestSchema, request.body);
    await deleteAccount(db, deps.payments, body);
    return { success: true };
  });
}

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
} from '../../contract/api.ts';
import { DEVICE_LIMIT } from '../../contract/limits.ts';
import type { SignInDetails } from '../domain/accounts.ts';
import { deleteAccount } from '../domain/deletion.ts';
import { createHandoffFor, redeemHandoffForDevice } from '../domain/handoff.ts';
import { accountView, listDevices, prepareSessionCheck, revokeDevice, revokeSession, signIn } from '../domain/sessions.ts';
import type { AppDeps } from './context.ts';
import { verifyResponseJsonSchema } from './response-schemas.ts';
import { parseBody } from './validation.ts';

export async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;
  const { config } = deps;

  async function signInWith(idToken: string, details: SignInDetails) {
    const identity = await deps.verifier.verify(idToken, { provider: details.provider });
    const grant = await signIn(db, identity, details, {
      cooldownSeconds: config.deletedAccountCooldownSeconds,
      sessionTtlSeconds: config.sessionTtlSeconds,
    });
    return { success: true, ...grant };
  }

  app.post('/google/signin', async (request) => {
    const body = parseBody(googleSignInRequestSchema, request.body);
    return signInWith(body.idToken, { provider: 'google' });
  });

  app.post('/apple/signin', async (request) => {
    const body = parseBody(appleSignInRequestSchema, request.body);
    // The body's e-mail is validated but never used: an account's e-mail comes from the verified token.
    return signInWith(body.identityToken, { provider: 'apple', fullName: body.fullName });
  });

  const checkSession = prepareSessionCheck(db);
  app.post('/verify', { schema: { response: { 200: verifyResponseJsonSchema } } }, async (request) => {
    const body = parseBody(verifyRequestSchema, request.body);
    const { user, subscription } = await checkSession(body.sessionToken);
    await deps.limits.forAccount('verify', user.id);
    return { success: true, ...accountView(user, subscription) };
  });

  app.post('/signout', async (request) => {
    const body = parseBody(signOutRequestSchema, request.body);
    await revokeSession(db, body.sessionToken);
    // Signing out twice, or with a token already expired, is still a successful sign-out.
    return { success: true };
  });

  app.post('/handoff', async (request) => {
    const body = parseBody(handoffRequestSchema, request.body);
    return { success: true, ...(await createHandoffFor(db, body.sessionToken, config.handoffTtlSeconds)) };
  });

  app.post('/handoff/redeem', async (request) => {
    const body = parseBody(handoffRedeemRequestSchema, request.body);
    const grant = await redeemHandoffForDevice(db, body.handoffToken, body.deviceName, {
      sessionTtlSeconds: config.sessionTtlSeconds,
      deviceLimit: DEVICE_LIMIT,
      accountUrl: `${config.publicUrl}/account`,
    });
    return { success: true, ...grant };
  });

  app.post('/devices', async (request) => {
    const body = parseBody(devicesRequestSchema, request.body);
    return { success: true, devices: await listDevices(db, body.sessionToken) };
  });

  app.post('/devices/revoke', async (request) => {
    const body = parseBody(revokeDeviceRequestSchema, request.body);
    await revokeDevice(db, body.sessionToken, body.deviceId);
    return { success: true };
  });

  app.delete('/delete-account', async (request) => {
    const body = parseBody(deleteAccountRequestSchema, request.body);
    await deleteAccount(db, deps.payments, body);
    return { success: true };
  });
}

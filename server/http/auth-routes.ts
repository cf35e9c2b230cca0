/** Sign-in, session, hand-off, device and deletion calls under /api/auth (design §7). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  appleSignInRequestSchema,
  deleteAccountRequestSchema,
  devicesAnswerSchema,
  devicesRequestSchema,
  doneAnswerSchema,
  googleSignInRequestSchema,
  handoffAnswerSchema,
  handoffRedeemRequestSchema,
  handoffRequestSchema,
  revokeDeviceAnswerSchema,
  revokeDeviceRequestSchema,
  signInAnswerSchema,
  signOutRequestSchema,
  verifyAnswerSchema,
  verifyRequestSchema,
} from '../../contract/api.ts';
import { DEVICE_LIMIT } from '../../contract/limits.ts';
import type { SignInDetails } from '../domain/accounts/accounts.ts';
import { accountView } from '../domain/accounts/sessions.ts';
import type { AppDeps } from './context.ts';
import { answers } from './route-schemas.ts';
import { sessionPreHandler, signedIn } from './signed-in.ts';

const tags = ['auth'];

export async function authRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { config } = deps;
  const { sessions } = deps.domain;

  async function signInWith(idToken: string, details: SignInDetails) {
    const identity = await deps.verifier.verify(idToken, { provider: details.provider });
    const grant = await sessions.signIn(identity, details, {
      cooldownSeconds: config.deletedAccountCooldownSeconds,
      sessionTtlSeconds: config.sessionTtlSeconds,
      billingNow: await deps.billingNow(),
    });
    return { success: true as const, ...grant };
  }

  app.post(
    '/google/signin',
    { config: { rateLimitFamily: 'signIn' }, schema: { summary: 'Sign in with a Google ID token', tags, body: googleSignInRequestSchema, response: answers(signInAnswerSchema) } },
    async (request) => signInWith(request.body.idToken, { provider: 'google' }),
  );

  app.post(
    '/apple/signin',
    { config: { rateLimitFamily: 'signIn' }, schema: { summary: 'Sign in with an Apple identity token', tags, body: appleSignInRequestSchema, response: answers(signInAnswerSchema) } },
    // The body's e-mail is validated but never used: an account's e-mail comes from the verified token.
    async (request) => signInWith(request.body.identityToken, { provider: 'apple', fullName: request.body.fullName }),
  );

  const checkSession = sessions.check;
  app.post(
    '/verify',
    { config: { rateLimitFamily: 'verify' }, schema: { summary: 'Check a session token', tags, body: verifyRequestSchema, response: answers(verifyAnswerSchema) } },
    async (request) => {
      const { user, subscription, billingClockOffsetSeconds } = await checkSession(request.body.sessionToken);
      await deps.limits.forAccount('verify', user.id);
      return { success: true as const, ...accountView(user, subscription, deps.billingNowWith(billingClockOffsetSeconds)) };
    },
  );

  app.post(
    '/signout',
    { config: { rateLimitFamily: 'signOut' }, schema: { summary: 'Sign a session out', tags, body: signOutRequestSchema, response: answers(doneAnswerSchema) } },
    async (request) => {
      await sessions.signOut(request.body.sessionToken);
      // Signing out twice, or with a token already expired, is still a successful sign-out.
      return { success: true as const };
    },
  );

  app.post(
    '/handoff',
    {
      config: { rateLimitFamily: 'handoff' },
      schema: { summary: 'Mint a desktop app link', tags, body: handoffRequestSchema, response: answers(handoffAnswerSchema) },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => ({
      success: true as const,
      ...(await sessions.createHandoff(signedIn(request), config.handoffTtlSeconds, request.body.codeChallenge)),
    }),
  );

  app.post(
    '/handoff/redeem',
    {
      config: { rateLimitFamily: 'handoff' },
      schema: { summary: 'Redeem a desktop app link for a session', tags, body: handoffRedeemRequestSchema, response: answers(signInAnswerSchema) },
    },
    async (request) => {
      const grant = await sessions.redeemHandoff(request.body.handoffToken, request.body.deviceName, {
        sessionTtlSeconds: config.sessionTtlSeconds,
        deviceLimit: DEVICE_LIMIT,
        accountUrl: `${config.publicUrl}/account`,
        jobs: deps.jobs,
        codeVerifier: request.body.codeVerifier,
        billingNow: await deps.billingNow(),
      });
      return { success: true as const, ...grant };
    },
  );

  app.post(
    '/devices',
    {
      config: { rateLimitFamily: 'devices' },
      schema: { summary: "List the account's desktop devices", tags, body: devicesRequestSchema, response: answers(devicesAnswerSchema) },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => ({ success: true as const, devices: await sessions.listDevices(signedIn(request).user.id) }),
  );

  app.post(
    '/devices/revoke',
    {
      config: { rateLimitFamily: 'devices' },
      schema: {
        summary: 'Remove a device (sign a desktop session out, delete a WireGuard key); answers the peer-list version of the removal',
        tags,
        body: revokeDeviceRequestSchema,
        response: answers(revokeDeviceAnswerSchema),
      },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => {
      await sessions.revokeDevice(signedIn(request), request.body.deviceId);
      // Read after the removal committed: a version at or after it, which every server must confirm.
      return { success: true as const, peerListVersion: await deps.domain.relay.currentVersion() };
    },
  );

  app.delete(
    '/delete-account',
    {
      config: { rateLimitFamily: 'deleteAccount' },
      schema: { summary: 'Delete the account', tags, body: deleteAccountRequestSchema, response: answers(doneAnswerSchema) },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => {
      await sessions.deleteAccount(deps.payments, deps.jobs, signedIn(request), request.body);
      return { success: true as const };
    },
  );
}

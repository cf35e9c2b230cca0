/** The VPN calls of the account page and the desktop app under /api/vpn (issue 29, items 1 to 3). */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  registerKeyRequestSchema,
  removalStatusAnswerSchema,
  removalStatusRequestSchema,
  rotateKeyRequestSchema,
  vpnServersAnswerSchema,
  wireguardDeviceAnswerSchema,
} from '../../contract/api.ts';
import { DEVICE_LIMIT } from '../../contract/limits.ts';
import { serversStatusAnswerSchema } from '../../contract/relay.ts';
import { serversStatus, statusDaysFrom } from '../vpn/server-status.ts';
import type { AppDeps } from './context.ts';
import { answers } from './route-schemas.ts';
import { sessionPreHandler, signedIn } from './signed-in.ts';

const tags = ['vpn'];

export async function vpnRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { config } = deps;
  const { vpn, sessions, relay } = deps.domain;
  // The VPN servers' own keys, never a device's (issue 46, item 9): read at each call, as the catalogue is.
  const serverKeys = () => config.vpnServers.servers.map((server) => server.publicKey);

  app.get(
    '/servers',
    // A public catalogue the apps fetch now and then, never a person by hand.
    { config: { rateLimitFamily: 'other' }, schema: { summary: 'The VPN servers a configuration can point at', tags, response: answers(vpnServersAnswerSchema) } },
    // The catalogue is public (what any WireGuard configuration names); read at each call, so a reload shows.
    async () => ({ success: true as const, servers: config.vpnServers.servers }),
  );

  app.get(
    '/servers/status',
    {
      // Public and cached by browsers and proxies (15 s): the status page and the device dialog poll it.
      config: { rateLimitFamily: 'other' },
      schema: {
        summary: "Every VPN server's state: online, maintenance, load, measured uptime (public, cacheable)",
        operationId: 'getServersStatus',
        tags,
        response: { ...answers(serversStatusAnswerSchema), 304: z.null().describe('Unchanged since the ETag given') },
      },
    },
    async (request, reply) => {
      const now = deps.statusNow();
      const [{ servers }, tally] = await Promise.all([relay.serverStates(), relay.uptimeDays(statusDaysFrom(now))]);
      const answer = serversStatus(config.vpnServers.servers, servers, tally, now);
      // The ETag is of the figures, not of the time they were read: an unchanged status answers 304.
      const etag = `"status-${createHash('sha256').update(JSON.stringify(answer.servers)).digest('base64url').slice(0, 22)}"`;
      reply.header('cache-control', 'public, max-age=15').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return answer;
    },
  );

  app.post(
    '/devices',
    {
      config: { rateLimitFamily: 'devices' },
      schema: {
        summary: 'Register a WireGuard public key (a new device, or a desktop session\'s own key)',
        description:
          'A web session sends `idToken` of a sign-in within the last 10 minutes (else 401 reauth_required); a desktop session sets its own key within 10 minutes of its hand-off.',
        tags,
        body: registerKeyRequestSchema,
        response: answers(wireguardDeviceAnswerSchema),
      },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => {
      // A web session's new key needs a sign-in within 10 minutes (issue 46, item 9): the provider's ID token
      // says when, verified as the data export's is (revocation checked).
      const identity = request.body.idToken ? await deps.verifier.verify(request.body.idToken, { checkRevoked: true }) : null;
      return {
        success: true as const,
        device: await vpn.registerKey(signedIn(request), request.body, identity, {
          pools: config.addressPools,
          billingNow: await deps.billingNow(),
          deviceLimit: DEVICE_LIMIT,
          accountUrl: `${config.publicUrl}/account`,
          serverKeys: serverKeys(),
          jobs: deps.jobs,
        }),
      };
    },
  );

  app.post(
    '/devices/removal-status',
    {
      config: { rateLimitFamily: 'devices' },
      schema: {
        summary: 'Whether every VPN server has applied a removal (its peerListVersion); the account page polls it',
        tags,
        body: removalStatusRequestSchema,
        response: answers(removalStatusAnswerSchema),
      },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => {
      const { servers } = await relay.serverStates();
      const confirmedOf = new Map(servers.map((row) => [row.serverId, row.confirmedVersion]));
      // The servers that must confirm: the catalogue's, each with a relay token (production refuses one without).
      const lagging = config.vpnServers.servers
        .filter((server) => config.relayTokens.has(server.id) && (confirmedOf.get(server.id) ?? 0) < request.body.version)
        .map((server) => server.id);
      return { success: true as const, confirmed: lagging.length === 0, lagging };
    },
  );

  app.post(
    '/devices/rotate',
    {
      config: { rateLimitFamily: 'devices' },
      schema: {
        summary: "Replace a device's WireGuard key",
        description: 'Sends `idToken` of a sign-in within the last 10 minutes (else 401 reauth_required), as adding a device does.',
        tags,
        body: rotateKeyRequestSchema,
        response: answers(wireguardDeviceAnswerSchema),
      },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => {
      // A new key is a new credential (issue 46, item 9): a sign-in within 10 minutes, verified as for adding one.
      const identity = request.body.idToken ? await deps.verifier.verify(request.body.idToken, { checkRevoked: true }) : null;
      return {
        success: true as const,
        device: await vpn.rotateKey(signedIn(request), request.body, identity, {
          pools: config.addressPools,
          billingNow: await deps.billingNow(),
          serverKeys: serverKeys(),
        }),
      };
    },
  );
}

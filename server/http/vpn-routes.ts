/** The VPN calls of the account page and the desktop app under /api/vpn (issue 29, items 1 to 3). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  registerKeyRequestSchema,
  rotateKeyRequestSchema,
  vpnServersAnswerSchema,
  wireguardDeviceAnswerSchema,
} from '../../contract/api.ts';
import { DEVICE_LIMIT } from '../../contract/limits.ts';
import type { AppDeps } from './context.ts';
import { answers } from './route-schemas.ts';
import { sessionPreHandler, signedIn } from './signed-in.ts';

const tags = ['vpn'];

export async function vpnRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { config } = deps;
  const { vpn, sessions } = deps.domain;
  // The catalogue is public (what any WireGuard configuration names); answered as loaded at start-up.
  const servers = { success: true as const, servers: config.vpnServers.servers };

  app.get(
    '/servers',
    // A public catalogue the apps fetch now and then, never a person by hand.
    { config: { rateLimitFamily: 'other' }, schema: { summary: 'The VPN servers a configuration can point at', tags, response: answers(vpnServersAnswerSchema) } },
    async () => servers,
  );

  app.post(
    '/devices',
    {
      config: { rateLimitFamily: 'devices' },
      schema: {
        summary: 'Register a WireGuard public key (a new device, or a desktop session\'s own key)',
        tags,
        body: registerKeyRequestSchema,
        response: answers(wireguardDeviceAnswerSchema),
      },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => ({
      success: true as const,
      device: await vpn.registerKey(signedIn(request), request.body, {
        pools: config.addressPools,
        billingNow: await deps.billingNow(),
        deviceLimit: DEVICE_LIMIT,
        accountUrl: `${config.publicUrl}/account`,
      }),
    }),
  );

  app.post(
    '/devices/rotate',
    {
      config: { rateLimitFamily: 'devices' },
      schema: { summary: "Replace a device's WireGuard key", tags, body: rotateKeyRequestSchema, response: answers(wireguardDeviceAnswerSchema) },
      preHandler: sessionPreHandler(sessions.authenticate, deps.limits),
    },
    async (request) => ({
      success: true as const,
      device: await vpn.rotateKey(signedIn(request), request.body, { pools: config.addressPools, billingNow: await deps.billingNow() }),
    }),
  );
}

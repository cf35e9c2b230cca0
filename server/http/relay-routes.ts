/**
 * The relay API (issue 29, item 5): GET /api/relay/v1/peers for the VPN servers, with a bearer token of
 * RELAY_TOKENS. With no token configured the call does not exist (404); a missing or wrong token is a 401.
 * The full list carries an ETag (its version) and answers 304 to a matching If-None-Match; `?since=` answers
 * the changes after a version, or 410 when the change log no longer reaches back to it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { relayPeersAnswerSchema, relayPeersQuerySchema } from '../../contract/api.ts';
import { ApiFailure } from '../domain/errors.ts';
import type { AppDeps } from './context.ts';
import { noSuchCall } from './framework-errors.ts';
import { answers } from './route-schemas.ts';

const relayTokenInvalid = () => new ApiFailure(401, 'relay_token_invalid', 'The relay token is missing or wrong.');

/** The relay whose token the request carries, or null. Every configured token is compared, in constant time. */
function relayOf(request: FastifyRequest, tokens: Map<string, string>): string | null {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '');
  let found: string | null = null;
  for (const [relayId, token] of tokens) {
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = relayId;
  }
  return found;
}

/** The relay the onRequest hook recognised, by request. */
const relayOfRequest = new WeakMap<FastifyRequest, string>();

const etagOf = (version: number) => `"peers-${version}"`;

export async function relayRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { relay } = deps.domain;
  const tokens = deps.config.relayTokens;

  app.get(
    '/v1/peers',
    {
      // The VPN servers poll it; no person calls it.
      config: { rateLimitFamily: 'other' },
      schema: {
        summary: 'The peer list for the VPN servers (Authorization: Bearer <relay token>)',
        operationId: 'getRelayPeers',
        tags: ['relay'],
        querystring: relayPeersQuerySchema,
        response: { ...answers(relayPeersAnswerSchema), 304: z.null().describe('The list has not changed since the ETag given') },
      },
      // Before the query is validated: without relay tokens the call does not exist, without the token nothing is said.
      onRequest: async (request, reply) => {
        if (tokens.size === 0) return noSuchCall(request, reply);
        const relayId = relayOf(request, tokens);
        if (!relayId) throw relayTokenInvalid();
        relayOfRequest.set(request, relayId);
      },
    },
    async (request, reply) => {
      const relayId = relayOfRequest.get(request)!;
      // A subscription lapses from the peer list by the billing clock, as it does everywhere (issue 34).
      const { version } = await relay.preparePoll(await deps.billingNow());
      deps.metrics.relayLastPoll.set({ relay: relayId }, Date.now() / 1000);
      reply.header('cache-control', 'no-store');
      if (request.query.since !== undefined) return relay.peerChangesSince(Number(request.query.since));
      if (request.headers['if-none-match'] === etagOf(version)) return reply.code(304).header('etag', etagOf(version)).send(null);
      const list = await relay.fullPeerList();
      return reply.header('etag', etagOf(list.version)).send(list);
    },
  );
}

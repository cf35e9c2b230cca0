/**
 * The relay API (issues 29, 46 item 13, 47): what the VPN servers call with a bearer token of RELAY_TOKENS,
 * whose id is the server's catalogue id. With no token configured the calls do not exist (404); a missing or
 * wrong token is a 401, before anything else is read. Each token has its own rate limit (429).
 *
 * - GET /v1/peers: the full list with an ETag (its version; 304 to a matching If-None-Match), served from one
 *   serialized answer per version; `?since=N` the changes after N (410 when the log no longer reaches back;
 *   `since=0` is the full list); with `&wait=S` a long poll: no change after N waits up to S seconds for the
 *   next (server/domain/devices/peer-log-signal.ts). A poll since N, or an ETag of N, confirms the server applied N.
 * - GET /v1/settings: the server's own settings (port, key, gateway addresses, pools, report interval).
 * - POST /v1/health: the server's aggregate report, kept as its latest only, and counted in the daily tally.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { doneAnswerSchema } from '../../contract/api.ts';
import {
  relayHealthReportSchema,
  relayPeersAnswerSchema,
  relayPeersQuerySchema,
  relaySettingsSchema,
  type FullPeerList,
  type PeerChanges,
  type RelaySettings,
} from '../../contract/relay.ts';
import { ApiFailure } from '../domain/errors.ts';
import { HEALTH_INTERVAL_SECONDS } from '../domain/devices/relay-servers.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from './context.ts';
import { noSuchCall } from './framework-errors.ts';
import { RateLimited } from './rate-limits.ts';
import { answers } from './route-schemas.ts';

const relayTokenInvalid = () => new ApiFailure(401, 'relay_token_invalid', 'The relay token is missing or wrong.');
const notInCatalogue = () =>
  new ApiFailure(404, 'not_found', 'The relay token names no server of the catalogue: give the token the id of its catalogue server.');

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
const versionOfEtag = (etag: string | undefined) => {
  const match = /^"peers-(\d{1,18})"$/.exec(etag ?? '');
  return match ? Number(match[1]) : null;
};

/** The longest wait a poll may ask for (contract/relay.ts). */
const MAX_WAIT_SECONDS = 25;

/** The first host of a pool (its .1): the tunnel gateway when the catalogue names no address of that family. */
function firstHost(cidr: string): string {
  const network = cidr.includes(':') ? ipaddr.IPv6.networkAddressFromCIDR(cidr) : ipaddr.IPv4.networkAddressFromCIDR(cidr);
  const bytes = network.toByteArray();
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) + 1;
  return ipaddr.fromByteArray(bytes).toString();
}

/** The settings of catalogue server `serverId` (null: not in the catalogue). */
function relaySettingsOf(config: Config, serverId: string): RelaySettings | null {
  const server = config.vpnServers.servers.find((each) => each.id === serverId);
  if (!server) return null;
  const ipv4Pool = config.addressPools.ipv4.cidr;
  const ipv6Pool = config.addressPools.ipv6.cidr;
  return {
    serverId,
    publicKey: server.publicKey,
    listenPort: server.endpointPort,
    gatewayIpv4: server.dns.find((address) => !address.includes(':')) ?? firstHost(ipv4Pool),
    gatewayIpv6: server.dns.find((address) => address.includes(':')) ?? firstHost(ipv6Pool),
    ipv4Pool,
    ipv6Pool,
    healthIntervalSeconds: HEALTH_INTERVAL_SECONDS,
  };
}

export async function relayRoutes(scope: FastifyInstance, deps: AppDeps) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { relay } = deps.domain;
  const tokens = deps.config.relayTokens;
  const tags = ['relay'];

  // Before the query or body is read: without relay tokens the calls do not exist, without the token nothing is said.
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    if (tokens.size === 0) return noSuchCall(request, reply);
    const relayId = relayOf(request, tokens);
    if (!relayId) throw relayTokenInvalid();
    try {
      await deps.limits.forRelay(relayId);
    } catch (error) {
      if (error instanceof RateLimited) deps.metrics.relayCallsRefused.inc({ relay: relayId });
      throw error;
    }
    relayOfRequest.set(request, relayId);
  };

  /**
   * The full list serialized once per version: every relay's full poll of one version is the same bytes.
   * Also keyed by the changes heard (peerLog's generation), so a version number used again (a database
   * restored from a backup, a test's reset) is never answered from the old list.
   */
  let cached: { version: number; generation: number; body: string } | null = null;
  const fullList = async (version: number): Promise<{ version: number; body: string }> => {
    const generation = deps.peerLog?.generation() ?? 0;
    if (cached?.version === version && cached.generation === generation) return cached;
    const list: FullPeerList = await relay.fullPeerList();
    const body = JSON.stringify(list);
    deps.metrics.relayFullListBuilds.inc();
    if (list.version === version) cached = { version, generation, body };
    return { version: list.version, body };
  };

  /** The changes since `since`, waiting up to `waitSeconds` for one when there is none yet. */
  const changesSince = async (request: FastifyRequest, reply: FastifyReply, since: number, waitSeconds: number): Promise<PeerChanges> => {
    if (waitSeconds <= 0 || !deps.peerLog) return relay.peerChangesSince(since);
    const released = new AbortController();
    // The client went away (or the answer was sent): stop waiting for it.
    const onClose = () => released.abort();
    reply.raw.once('close', onClose);
    // Listening before the first read: a change committed between the read and the wait is not missed.
    const waiter = deps.peerLog.waiter(released.signal);
    deps.metrics.relayWaitingPolls.inc();
    try {
      // A waiting answer writes nothing: the wait ends before the socket's idle cut (twice REQUEST_TIMEOUT, app.ts).
      const longest = Math.min(MAX_WAIT_SECONDS, Math.max(0, (deps.config.requestTimeoutMs * 2) / 1000 - 5));
      const deadline = Date.now() + Math.min(waitSeconds, longest) * 1000;
      let changes = await relay.peerChangesSince(since);
      while (changes.version === since && Date.now() < deadline) {
        const outcome = await waiter.next(deadline - Date.now());
        if (outcome === 'released') break;
        if (outcome === 'changed') changes = await relay.peerChangesSince(since);
        else break;
      }
      request.log.debug({ since, version: changes.version }, 'peer list long poll answered');
      return changes;
    } finally {
      deps.metrics.relayWaitingPolls.dec();
      waiter.dispose();
      reply.raw.off('close', onClose);
    }
  };

  app.get(
    '/v1/peers',
    {
      // The VPN servers poll it; no person calls it.
      config: { rateLimitFamily: 'other' },
      schema: {
        summary: 'The peer list for the VPN servers (Authorization: Bearer <relay token>); `since` and `wait` make a long poll',
        operationId: 'getRelayPeers',
        tags,
        querystring: relayPeersQuerySchema,
        response: { ...answers(relayPeersAnswerSchema), 304: z.null().describe('The list has not changed since the ETag given') },
      },
      onRequest: authenticate,
    },
    async (request, reply) => {
      const relayId = relayOfRequest.get(request)!;
      // A subscription lapses from the peer list by the billing clock, as it does everywhere (issue 34).
      let { version } = await relay.preparePoll(await deps.billingNow());
      deps.metrics.relayLastPoll.set({ relay: relayId }, Date.now() / 1000);
      reply.header('cache-control', 'no-store');
      const since = request.query.since === undefined ? null : Number(request.query.since);
      // since=0: the relay has nothing yet, which is what the full list answers (issue 46, item 13).
      if (since !== null && since > 0) {
        await relay.confirmVersion(relayId, since);
        return changesSince(request, reply, since, Number(request.query.wait ?? 0));
      }
      // since=0 while the list has never changed: the full list is the empty change set, so this is a long poll
      // too (a new server's agent would otherwise be answered at once, again and again); a change ends it with the full list.
      if (since === 0 && version === 0) {
        const changes = await changesSince(request, reply, 0, Number(request.query.wait ?? 0));
        if (changes.version === 0) return changes;
        version = changes.version;
      }
      const known = versionOfEtag(request.headers['if-none-match']);
      if (known !== null) await relay.confirmVersion(relayId, known);
      if (known === version) return reply.code(304).header('etag', etagOf(version)).send(null);
      const list = await fullList(version);
      // Already serialized (and checked against the contract when it was made): sent as it is.
      return reply.header('etag', etagOf(list.version)).type('application/json; charset=utf-8').serializer((payload) => payload as string).send(list.body as never);
    },
  );

  app.get(
    '/v1/settings',
    {
      config: { rateLimitFamily: 'other' },
      schema: {
        summary: "The VPN server's own settings (Authorization: Bearer <relay token>): listen port, public key, gateway addresses, pools",
        operationId: 'getRelaySettings',
        tags,
        response: answers(relaySettingsSchema),
      },
      onRequest: authenticate,
    },
    async (request, reply) => {
      const settings = relaySettingsOf(deps.config, relayOfRequest.get(request)!);
      if (!settings) throw notInCatalogue();
      reply.header('cache-control', 'no-store');
      return settings;
    },
  );

  app.post(
    '/v1/health',
    {
      config: { rateLimitFamily: 'other' },
      schema: {
        summary: "The VPN server's aggregate health report, every healthIntervalSeconds (Authorization: Bearer <relay token>)",
        operationId: 'postRelayHealth',
        tags,
        body: relayHealthReportSchema,
        response: answers(doneAnswerSchema),
      },
      onRequest: authenticate,
    },
    async (request) => {
      await relay.recordHealth(relayOfRequest.get(request)!, request.body);
      return { success: true as const };
    },
  );
}

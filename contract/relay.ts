/**
 * The relay contract (design §7f, issues 47 and 48): what the API and the relay agent on every VPN server
 * say to each other, and the public status the servers' reports feed. The agent (`relay/`) imports only
 * this module (and what it imports), so it stays a small program of its own; the API's routes validate
 * the same schemas, so the two cannot drift apart.
 */
import { z } from 'zod';

// GET /relay/v1/peers (Authorization: Bearer <relay token>): who may connect now, or what changed since a version
export const peerSchema = z.object({
  publicKey: z.string(),
  ipv4Address: z.string(),
  ipv6Address: z.string(),
  /**
   * ISO 8601: when this key's access ends if nothing else happens (the paid-through date plus any grace
   * the product gives). The agent removes the key then by itself, even while the API cannot be reached.
   */
  expiresAt: z.string(),
});
export type Peer = z.infer<typeof peerSchema>;

const versionNumber = z
  .string()
  .regex(/^\d{1,18}$/, 'must be a version number the peer list answered');

export const relayPeersQuerySchema = z.object({
  since: versionNumber.optional(),
  /**
   * With `since`: wait up to this many seconds for the next change instead of answering "nothing yet"
   * (a long poll; 0 to 25).
   */
  wait: z
    .string()
    .regex(/^\d{1,2}$/, 'must be a number of seconds from 0 to 25')
    .refine((value) => Number(value) <= 25, 'must be a number of seconds from 0 to 25')
    .optional(),
});

export const fullPeerListSchema = z.object({ version: z.number().int(), peers: z.array(peerSchema) });
export const peerChangesSchema = z.object({ version: z.number().int(), added: z.array(peerSchema), removed: z.array(z.string()) });
export const relayPeersAnswerSchema = z.union([fullPeerListSchema, peerChangesSchema]);
export type FullPeerList = z.infer<typeof fullPeerListSchema>;
export type PeerChanges = z.infer<typeof peerChangesSchema>;
export type RelayPeersAnswer = z.infer<typeof relayPeersAnswerSchema>;

// GET /relay/v1/settings (same token): what the server with this token is, so setting it up needs nothing
// known out of band.
export const relaySettingsSchema = z.object({
  /** The catalogue server id the token belongs to. */
  serverId: z.string(),
  /** The WireGuard public key the catalogue lists for it: the agent refuses to run on an interface with another. */
  publicKey: z.string(),
  listenPort: z.number().int().min(1).max(65_535),
  /** The tunnel gateway addresses (the configurations' DNS), e.g. 10.64.0.1 and fd76:6569:6c00::1. */
  gatewayIpv4: z.string(),
  gatewayIpv6: z.string(),
  /** The tunnel address pools (CIDR) customers' addresses are drawn from. */
  ipv4Pool: z.string(),
  ipv6Pool: z.string(),
  /** How often the agent reports its health (seconds). */
  healthIntervalSeconds: z.number().int().positive(),
});
export type RelaySettings = z.infer<typeof relaySettingsSchema>;

// POST /relay/v1/health (same token): the agent's aggregate report, every healthIntervalSeconds. Counts only:
// never a key, an endpoint, a byte count or a handshake time.
export const relayHealthReportSchema = z.object({
  versionApplied: z.number().int().min(0),
  peers: z.number().int().min(0),
  /** Peers with a handshake in the last 180 s, as a count. */
  activePeers: z.number().int().min(0),
  uptimeSeconds: z.number().int().min(0),
  agentVersion: z.string().min(1).max(40),
});
export type RelayHealthReport = z.infer<typeof relayHealthReportSchema>;

// GET /vpn/servers/status (public, cacheable): every catalogue server's state, aggregate only (issue 48).
export const serverStatusSchema = z.object({
  id: z.string(),
  country: z.string(),
  countryName: z.string(),
  city: z.string(),
  /** A health report within the last three report intervals. */
  online: z.boolean(),
  /** Set in the catalogue: the server is taken out of service on purpose. */
  maintenance: z.boolean(),
  /** Active peers over the server's capacity, 0 to 100. */
  load: z.number().min(0).max(100),
  /** ISO 8601 of the last health report, or null when none arrived yet. */
  lastReportAt: z.string().nullable(),
  /** Measured uptime in percent over the last 30 and 90 days, counted from the server's first report (days with no record since count as down), or null before any report. */
  uptime30d: z.number().min(0).max(100).nullable(),
  uptime90d: z.number().min(0).max(100).nullable(),
  /** The last 90 days, oldest first: the share of the day the server was up since its first report (0 to 1), or null for a day before it. */
  days: z.array(z.number().min(0).max(1).nullable()),
});
export type ServerStatus = z.infer<typeof serverStatusSchema>;
export const serversStatusAnswerSchema = z.object({ servers: z.array(serverStatusSchema), updatedAt: z.string() });
export type ServersStatusAnswer = z.infer<typeof serversStatusAnswerSchema>;

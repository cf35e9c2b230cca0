/**
 * The VPN servers a WireGuard configuration can point at (issue 29, item 1), read from the JSON file
 * VPN_SERVERS names. Without it the embedded demo catalogue below is used, so `npm start` works; its keys
 * have the real format but no server holds their private halves, and production refuses it
 * (server/production-checks.ts). A file that is not a valid catalogue stops the API in any environment.
 */
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { WIREGUARD_KEY_PATTERN, type VpnServer } from '../../contract/api.ts';

/** A server's capacity (active peers at 100 % load) when the catalogue does not say. */
const DEFAULT_CAPACITY = 250;

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

const serverSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be 1 to 40 characters of a-z, 0-9 and -'),
  country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US'),
  countryName: z.string().min(1),
  city: z.string().min(1),
  hostname: z.string().regex(HOSTNAME, 'must be a host name'),
  endpointHost: z.string().refine((value) => HOSTNAME.test(value) || ipaddr.isValid(value), 'must be a host name or an IP address'),
  endpointPort: z.number().int().min(1).max(65_535),
  publicKey: z.string().regex(WIREGUARD_KEY_PATTERN, 'must be a WireGuard public key (base64 of 32 bytes)'),
  dns: z.array(z.string().refine((value) => ipaddr.isValid(value), 'must be an IP address')).min(1),
  /** Active peers at which the server counts as fully loaded (issue 48); 250 unless given. */
  capacity: z.number().int().positive().default(DEFAULT_CAPACITY),
  /** Taken out of service on purpose: the status page says so (issue 48). */
  maintenance: z.boolean().default(false),
});

const catalogueSchema = z.object({
  /** True only in the embedded demo catalogue: production refuses it. */
  demo: z.boolean().optional(),
  servers: z
    .array(serverSchema)
    .min(1)
    .refine((servers) => new Set(servers.map((server) => server.id)).size === servers.length, 'server ids must be unique'),
});

/** A catalogue server: what configurations name, plus what only the operator and the status page use. */
export type CatalogueServer = VpnServer & { capacity: number; maintenance: boolean };

export interface VpnCatalogue {
  demo: boolean;
  servers: CatalogueServer[];
}

/**
 * The demo catalogue: one server in each of the spec's locations. The addresses are documentation ranges
 * (RFC 5737), the keys X25519 public keys whose private halves were thrown away.
 */
export const DEMO_CATALOGUE: VpnCatalogue = {
  demo: true,
  servers: [
    {
      id: 'us-nyc-1',
      country: 'US',
      countryName: 'United States',
      city: 'New York',
      hostname: 'us-nyc-1.vpn.veil.example',
      endpointHost: '192.0.2.10',
      endpointPort: 51820,
      publicKey: 'JRvNKoxqtv74Qb4fnNzUOAiNl9GcMDHaFNTWAYDgPA8=',
      dns: ['10.64.0.1', 'fd76:6569:6c00::1'],
      capacity: DEFAULT_CAPACITY,
      maintenance: false,
    },
    {
      id: 'ng-lagos-1',
      country: 'NG',
      countryName: 'Nigeria',
      city: 'Lagos',
      hostname: 'ng-lagos-1.vpn.veil.example',
      endpointHost: '198.51.100.20',
      endpointPort: 51820,
      publicKey: 'G8arjbiZ2lErtbJZgeRirmxED+XvVUQw67DAHCq1BDM=',
      dns: ['10.64.0.1', 'fd76:6569:6c00::1'],
      capacity: DEFAULT_CAPACITY,
      maintenance: false,
    },
  ],
};

/** The catalogue VPN_SERVERS names (the demo one when unset); throws one line naming what is wrong. */
export function loadVpnCatalogue(path: string | undefined): VpnCatalogue {
  if (!path) return DEMO_CATALOGUE;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`VPN_SERVERS: cannot read ${path} as JSON (${(error as Error).message})`);
  }
  const parsed = catalogueSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; ');
    throw new Error(`VPN_SERVERS: ${path} is not a valid server catalogue: ${problems}`);
  }
  return { demo: parsed.data.demo ?? false, servers: parsed.data.servers };
}

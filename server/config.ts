/**
 * The API's configuration: every variable, its default and its meaning, parsed once with zod. Every
 * default is an embedded one, so `npm start` needs nothing set (design §7).
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { clientConfigFromEnv, type ClientConfigPayload } from '../contract/client-config.ts';
import { parseAddressPool, type AddressPools } from './domain/devices/address-pools.ts';
import { loadVpnCatalogue, type VpnCatalogue } from './vpn/catalogue.ts';

const DAY_SECONDS = 86_400;

/** "604800", "7d", "12h", "30m" or "45s" -> seconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+)\s*([dhms]?)$/.exec(value.trim());
  if (!match) throw new Error(`not a duration: "${value}" (use e.g. 7d, 12h, 30m, 45s or seconds)`);
  const unit = { d: DAY_SECONDS, h: 3600, m: 60, s: 1, '': 1 }[match[2] as 'd' | 'h' | 'm' | 's' | ''];
  return Number(match[1]) * unit;
}

const duration = z.string().transform((value, ctx) => {
  try {
    return parseDuration(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/**
 * TRUST_PROXY: which X-Forwarded-For entries to believe, i.e. who the client is for the rate limits.
 * "false" (the socket's address), a hop count ("1": the one load balancer in front), or a comma-separated
 * list of proxy addresses or CIDR ranges. "true" believes every entry, so any client picks its own
 * address; production refuses it (server/production-checks.ts).
 */
export type TrustProxy = boolean | number | string[];

function parseTrustProxy(value: string): TrustProxy {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === 'false') return false;
  if (trimmed === 'true') return true;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const proxies = trimmed.split(',').map((entry) => entry.trim());
  const keywords = ['loopback', 'linklocal', 'uniquelocal'];
  for (const proxy of proxies) {
    const [address = '', bits, ...rest] = proxy.split('/');
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (isIP(address) === 6 ? 128 : 32));
    if (!keywords.includes(proxy) && (!isIP(address) || !validBits || rest.length > 0)) {
      throw new Error(`TRUST_PROXY: "${proxy}" is not an address, a CIDR range, or a hop count (use e.g. 1 or 10.0.0.0/8,192.0.2.10)`);
    }
  }
  return proxies;
}

/**
 * What Fastify's `trustProxy` takes. Fastify 5 treats a bare number as "trust nothing" (a hop count cannot
 * tell a proxy from a client that connects directly), so a hop count becomes proxy-addr's own rule: the
 * nearest `hops` addresses are proxies. That is only sound when clients cannot reach the API except
 * through those proxies; a list of proxy addresses holds either way.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /** `run`: the API applies pending migrations at start-up; `check`: a separate step did (`npm run db:migrate`, issue 46, item 11). */
  MIGRATIONS: z.enum(['run', 'check']).default('run'),
  STATIC_DIR: z.string().default('./dist'),
  FIREBASE_PROJECT_ID: z.string().default('demo-veil'),
  FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PRICE_ID: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** The Billing Portal configuration (bpc_…) every portal session uses; required in production with Stripe. */
  STRIPE_PORTAL_CONFIGURATION: z.string().optional(),
  /** Stripe API host override, for tests against a local stand-in ("http://127.0.0.1:12111"). */
  STRIPE_API_BASE: z.string().url().optional(),
  /** How long one Stripe request may take before the SDK gives up (its own retries follow; then the job's). */
  STRIPE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** The first retry delay of the billing jobs (refunds at the provider); each later one doubles. */
  BILLING_JOB_RETRY_DELAY: z.coerce.number().int().positive().default(10),
  /** The retries of a billing job after its first attempt; after the last one a refund is failed for good. */
  BILLING_JOB_RETRY_LIMIT: z.coerce.number().int().nonnegative().default(12),
  /**
   * Signs the local checkout's events. Unset: a random secret made at each start, so no one outside the
   * process can sign an event the public webhook route accepts. Set it only to script payments in tests.
   */
  LOCAL_WEBHOOK_SECRET: z.string().optional(),
  DELETED_ACCOUNT_COOLDOWN: duration.default(7 * DAY_SECONDS),
  SESSION_TTL: duration.default(30 * DAY_SECONDS),
  HANDOFF_TTL: duration.default(120),
  /** Requests per minute per client address on the sign-in and hand-off calls. */
  RATE_LIMIT_SIGN_IN: z.coerce.number().int().positive().default(20),
  /** Multiplies every other rate limit (server/http/rate-limits.ts): above 1 for load tests, below 1 in tests. */
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /** Rate-limit counters shared by every instance; unset: counters per process. */
  REDIS_URL: z.string().optional(),
  REDIS_KEY_PREFIX: z.string().default('veil:rate-limit:'),
  TRUST_PROXY: z.string().default('false'),
  /** The mail server (issue 21): smtp(s)://user:pass@host:port. Unset: the maildev that `npm start` runs. */
  SMTP_URL: z.string().optional(),
  /** The sender of every message, e.g. "Veil VPN <hello@example.com>". */
  MAIL_FROM: z.string().optional(),
  /** "off": nothing is mailed (owed messages are dropped, logged). */
  MAIL: z.enum(['on', 'off']).default('on'),
  MAIL_SMTP_PORT: z.coerce.number().int().min(1).max(65_535).default(1025),
  NODE_ENV: z.string().optional(),
  /** Cuts a request whose headers and body have not all arrived in this time (a trickled body). */
  REQUEST_TIMEOUT: duration.default(30),
  /** Bearer token for GET /api/metrics; production answers 404 there without it. */
  METRICS_TOKEN: z.string().optional(),
  /** The VPN server catalogue (a JSON file); unset: the embedded demo catalogue (server/vpn/catalogue.ts). */
  VPN_SERVERS: z.string().optional(),
  /** The tunnel address pools WireGuard keys draw from. */
  VPN_IPV4_POOL: z.string().default('10.64.0.0/10'),
  VPN_IPV6_POOL: z.string().default('fd76:6569:6c00::/48'),
  /** The VPN servers' tokens for the relay API: comma-separated relayId:token. Unset: the relay API answers 404. */
  RELAY_TOKENS: z.string().optional(),
  /** Staff (issue 30) must have a verified e-mail address at this domain (e.g. veil.example); unset: any. */
  STAFF_EMAIL_DOMAIN: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Whether the API migrates at start-up (`run`) or only checks that the owner's step did (`check`). */
  migrations: 'run' | 'check';
  staticDir: string;
  firebaseProjectId: string;
  firebaseEmulatorHost: string | undefined;
  stripe: {
    secretKey: string;
    priceId: string;
    webhookSecret: string;
    /** The Billing Portal configuration passed to every portal session (unset: the Dashboard's default). */
    portalConfiguration: string | undefined;
    apiBase: string | undefined;
    timeoutMs: number;
  } | null;
  billingJobRetryDelaySeconds: number;
  billingJobRetryLimit: number;
  localWebhookSecret: string;
  deletedAccountCooldownSeconds: number;
  sessionTtlSeconds: number;
  handoffTtlSeconds: number;
  rateLimitSignInPerMinute: number;
  rateLimitScale: number;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  trustProxy: TrustProxy;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Customer e-mail (server/mail): null with MAIL=off. */
  mail: { smtpUrl: string; from: string } | null;
  requestTimeoutMs: number;
  metricsToken: string | undefined;
  /** The VPN servers (issue 29); replaced when the file reloads (server/vpn/catalogue-reload.ts). */
  vpnServers: VpnCatalogue;
  /** The catalogue's file (VPN_SERVERS), watched for changes; undefined: the embedded demo catalogue. */
  vpnServersPath: string | undefined;
  addressPools: AddressPools;
  /** Relay id -> token for GET /api/relay/v1/peers; empty: the relay API answers 404. */
  relayTokens: Map<string, string>;
  /** The only e-mail domain staff may have (lower case, without "@"); undefined: any. */
  staffEmailDomain: string | undefined;
  /** NODE_ENV=production (the start-up refusals are server/production-checks.ts). */
  production: boolean;
  /**
   * The development-only calls (/api/dev): only with NODE_ENV=development or test, which `npm start`,
   * `npm run dev` and the tests set. An unset NODE_ENV (server/main.ts run by hand) gets none (issue 34).
   */
  developmentRoutes: boolean;
  /** What the SPA is told at run time (contract/client-config.ts). */
  client: ClientConfigPayload;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const stripeKeys = [e.STRIPE_SECRET_KEY, e.STRIPE_PRICE_ID, e.STRIPE_WEBHOOK_SECRET];
  if (stripeKeys.some(Boolean) && !stripeKeys.every(Boolean)) {
    throw new Error('Invalid configuration: STRIPE_SECRET_KEY, STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET go together');
  }
  let trustProxy: TrustProxy;
  let vpn: Pick<Config, 'vpnServers' | 'addressPools' | 'relayTokens'>;
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
    vpn = vpnConfig(e);
  } catch (error) {
    throw new Error(`Invalid configuration: ${(error as Error).message}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    migrations: e.MIGRATIONS,
    staticDir: resolve(e.STATIC_DIR),
    firebaseProjectId: e.FIREBASE_PROJECT_ID,
    firebaseEmulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST || undefined,
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          priceId: e.STRIPE_PRICE_ID!,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
          portalConfiguration: e.STRIPE_PORTAL_CONFIGURATION || undefined,
          apiBase: e.STRIPE_API_BASE,
          timeoutMs: e.STRIPE_TIMEOUT_MS,
        }
      : null,
    billingJobRetryDelaySeconds: e.BILLING_JOB_RETRY_DELAY,
    billingJobRetryLimit: e.BILLING_JOB_RETRY_LIMIT,
    localWebhookSecret: e.LOCAL_WEBHOOK_SECRET || `whsec_${randomBytes(32).toString('base64url')}`,
    deletedAccountCooldownSeconds: e.DELETED_ACCOUNT_COOLDOWN,
    sessionTtlSeconds: e.SESSION_TTL,
    handoffTtlSeconds: e.HANDOFF_TTL,
    rateLimitSignInPerMinute: e.RATE_LIMIT_SIGN_IN,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    redisUrl: e.REDIS_URL || undefined,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    trustProxy,
    logLevel: e.LOG_LEVEL,
    mail:
      e.MAIL === 'off'
        ? null
        : {
            smtpUrl: e.SMTP_URL || `smtp://127.0.0.1:${e.MAIL_SMTP_PORT}`,
            from: e.MAIL_FROM || `"${process.env.VITE_PRODUCT_NAME?.trim() || 'Veil VPN'}" <no-reply@veil.localhost>`,
          },
    requestTimeoutMs: e.REQUEST_TIMEOUT * 1000,
    metricsToken: e.METRICS_TOKEN || undefined,
    ...vpn,
    vpnServersPath: e.VPN_SERVERS || undefined,
    staffEmailDomain: e.STAFF_EMAIL_DOMAIN?.trim().replace(/^@/, '').toLowerCase() || undefined,
    production: e.NODE_ENV === 'production',
    developmentRoutes: e.NODE_ENV === 'development' || e.NODE_ENV === 'test',
    client: clientConfigFromEnv(env),
  };
}

/** RELAY_TOKENS: "relayId:token,relayId:token" -> relay id -> token. */
export function parseRelayTokens(value: string | undefined): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const entry of (value ?? '').split(',').map((part) => part.trim()).filter(Boolean)) {
    const colon = entry.indexOf(':');
    const relayId = entry.slice(0, colon);
    const token = entry.slice(colon + 1);
    if (colon <= 0 || !/^[A-Za-z0-9._-]{1,64}$/.test(relayId) || token === '') {
      throw new Error('RELAY_TOKENS: each entry must be relayId:token (relayId of A-Z a-z 0-9 . _ -), comma-separated');
    }
    if (tokens.has(relayId)) throw new Error(`RELAY_TOKENS: relay "${relayId}" is named twice`);
    tokens.set(relayId, token);
  }
  return tokens;
}

function vpnConfig(e: z.infer<typeof envSchema>): Pick<Config, 'vpnServers' | 'addressPools' | 'relayTokens'> {
  const pool = (variable: string, cidr: string, family: 4 | 6) => {
    try {
      return parseAddressPool(cidr, family);
    } catch (error) {
      throw new Error(`${variable}: ${(error as Error).message}`);
    }
  };
  return {
    vpnServers: loadVpnCatalogue(e.VPN_SERVERS || undefined),
    addressPools: { ipv4: pool('VPN_IPV4_POOL', e.VPN_IPV4_POOL, 4), ipv6: pool('VPN_IPV6_POOL', e.VPN_IPV6_POOL, 6) },
    relayTokens: parseRelayTokens(e.RELAY_TOKENS),
  };
}

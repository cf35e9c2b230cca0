/**
 * Rate limits on every call (design §7): per client address on every route under /api, and per account
 * wherever the call names one. Counters live in Redis when REDIS_URL is set, so every instance behind the
 * load balancer counts together; otherwise in the process's memory (one instance, development, tests).
 *
 * - Per address: @fastify/rate-limit (onRequest, before the body is even parsed), keyed on the client
 *   address Fastify derives with TRUST_PROXY; the table below gives each call its family.
 * - Per account: counted once the account is known and proven, never from what a caller merely claims
 *   (a forged token naming someone else's account must not use up that account's allowance): after the
 *   ID token is verified (sign-in, checkout, cancel), and after the session token is looked up (verify in
 *   its handler; hand-off, devices and deletion in their session preHandler, server/http/signed-in.ts).
 *
 * A refusal is a 429 `{success:false,error,code:'rate_limited'}` with Retry-After in seconds.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { ApiFailure } from '../domain/errors.ts';
import type { IdentityVerifier } from '../identity/verifier.ts';

/** The calls, grouped by what they do; each group has its own per-address limit. */
type CallFamily = 'signIn' | 'handoff' | 'verify' | 'signOut' | 'devices' | 'checkout' | 'cancel' | 'deleteAccount' | 'billing' | 'other';
/** What is counted per account; `identity` is every call carrying a verified Firebase ID token. */
export type AccountFamily = 'identity' | 'handoff' | 'verify' | 'devices' | 'deleteAccount' | 'billing';

/**
 * Requests per minute (times RATE_LIMIT_SCALE). Generous for a person, tight for a script: verify runs on
 * every page load and desktop-app start, deletion happens once in an account's life. Sign-in and hand-off
 * per address are RATE_LIMIT_SIGN_IN (default 20).
 */
const PER_ADDRESS: Record<Exclude<CallFamily, 'signIn' | 'handoff'>, number> = {
  verify: 600,
  signOut: 60,
  devices: 60,
  checkout: 10,
  cancel: 10,
  deleteAccount: 5,
  billing: 60,
  other: 1200,
};
const PER_ACCOUNT: Record<AccountFamily, number> = {
  identity: 20, // sign-in, checkout and cancel together
  handoff: 10,
  verify: 300,
  devices: 30,
  deleteAccount: 3,
  billing: 30,
};

/** Every call's family; any other route under /api (health, webhooks, the local checkout) is `other`. */
const CALLS: Record<string, CallFamily> = {
  'POST /api/auth/google/signin': 'signIn',
  'POST /api/auth/apple/signin': 'signIn',
  'POST /api/auth/verify': 'verify',
  'POST /api/auth/signout': 'signOut',
  'POST /api/auth/handoff': 'handoff',
  'POST /api/auth/handoff/redeem': 'handoff',
  'POST /api/auth/devices': 'devices',
  'POST /api/auth/devices/revoke': 'devices',
  'DELETE /api/auth/delete-account': 'deleteAccount',
  'POST /api/subscription/create-checkout': 'checkout',
  'POST /api/subscription/cancel': 'cancel',
  'POST /api/subscription/resume': 'cancel',
  'POST /api/subscription/refund': 'cancel',
  'POST /api/billing/history': 'billing',
  'POST /api/billing/portal': 'cancel',
};

const WINDOW_MS = 60_000;
const MESSAGE = 'Too many attempts. Please wait a moment and try again.';

export class RateLimited extends ApiFailure {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', MESSAGE);
  }
}

/** A fixed-window counter: how many hits in the current window, and how long until it ends. */
interface Counter {
  hit(key: string): Promise<{ count: number; ttlMs: number }>;
}

function memoryCounter(): Counter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    async hit(key) {
      const now = Date.now();
      if (windows.size > 50_000) for (const [k, w] of windows) if (w.endsAt <= now) windows.delete(k);
      let window = windows.get(key);
      if (!window || window.endsAt <= now) {
        window = { count: 0, endsAt: now + WINDOW_MS };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, ttlMs: window.endsAt - now };
    },
  };
}

function redisCounter(redis: Redis, prefix: string): Counter {
  return {
    async hit(key) {
      const name = `${prefix}${key}`;
      // The window starts with the first hit (NX): later hits must not push its end further away.
      const results = await redis.multi().incr(name).pexpire(name, WINDOW_MS, 'NX').pttl(name).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      const ttlMs = Number(results?.[2]?.[1] ?? WINDOW_MS);
      return { count, ttlMs: ttlMs > 0 ? ttlMs : WINDOW_MS };
    },
  };
}

export interface RateLimits {
  /** Counts one call of `family` for `accountId`; a RateLimited failure over the limit. */
  forAccount(family: AccountFamily, accountId: string): Promise<void>;
  /** The verifier, counting every verified identity under `identity` for its account. */
  countVerifiedIdentities(verifier: IdentityVerifier): IdentityVerifier;
}

/**
 * Registers the per-address limits on every route added after it, and returns the per-account limits.
 * Call before any route is registered.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<RateLimits> {
  const scaled = (perMinute: number) => Math.max(1, Math.round(perMinute * config.rateLimitScale));
  const perAddress = (family: CallFamily) =>
    family === 'signIn' || family === 'handoff' ? config.rateLimitSignInPerMinute : scaled(PER_ADDRESS[family]);

  let redis: Redis | null = null;
  if (config.redisUrl) {
    // Fail fast rather than queue: a request must not hang on a Redis that is away (see skipOnError).
    redis = new Redis(config.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    await redis.connect();
    app.addHook('onClose', async () => {
      await redis?.quit();
    });
  }
  const counter = redis ? redisCounter(redis, `${config.redisKeyPrefix}account:`) : memoryCounter();

  async function forAccount(family: AccountFamily, accountId: string) {
    let hit: { count: number; ttlMs: number };
    try {
      hit = await counter.hit(`${family}:${accountId}`);
    } catch (error) {
      // Same choice as the per-address limits: a Redis outage degrades limiting, not the service.
      app.log.warn({ err: error }, 'rate-limit counter unavailable');
      return;
    }
    if (hit.count > scaled(PER_ACCOUNT[family])) throw new RateLimited(Math.ceil(hit.ttlMs / 1000));
  }

  // Runs before the plugin's own onRoute hook, so each route arrives with its family's limit.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/')) return;
    const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
    const family = CALLS[`${method} ${route.url}`] ?? 'other';
    route.config = { ...(route.config as object), rateLimit: { max: perAddress(family), timeWindow: WINDOW_MS } };
  });

  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: `${config.redisKeyPrefix}address:` } : {}),
    skipOnError: true,
    errorResponseBuilder: (_request, context) => new RateLimited(Math.ceil(context.ttl / 1000)),
  });

  return {
    forAccount,
    // The verifier itself stays the prototype, so whatever else it offers keeps working.
    countVerifiedIdentities: (verifier) =>
      Object.assign(Object.create(verifier) as IdentityVerifier, {
        verify: (async (...args: Parameters<IdentityVerifier['verify']>) => {
          const identity = await verifier.verify(...args);
          await forAccount('identity', identity.subject);
          return identity;
        }) as IdentityVerifier['verify'],
      }),
  };
}

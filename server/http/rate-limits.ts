/**
 * Rate limits on every call (design §7): per client address on every route under /api, and per account
 * wherever the call names one. Counters live in Redis when REDIS_URL is set, so every instance behind the
 * load balancer counts together; otherwise in the process's memory (one instance, development, tests).
 *
 * - Per address: @fastify/rate-limit (onRequest, before the body is even parsed), keyed on the client
 *   address Fastify derives with TRUST_PROXY. Each route under /api names its family in its own options,
 *   `config: { rateLimitFamily: 'verify' }`; a route without one is refused when it is registered.
 * - Per account: counted once the account is known and proven, never from what a caller merely claims
 *   (a forged token naming someone else's account must not use up that account's allowance): after the
 *   ID token is verified (sign-in, checkout, cancel), and after the session token is looked up (verify in
 *   its handler; hand-off, devices and deletion in their session preHandler, server/http/signed-in.ts).
 *
 * A refusal is a 429 `{success:false,error,code:'rate_limited'}` with Retry-After in seconds.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { ApiFailure } from '../domain/errors.ts';
import type { IdentityVerifier } from '../identity/verifier.ts';

/**
 * The calls, grouped by what they do; each group has its own per-address limit. `other` is for calls no
 * person makes by hand: health checks, the webhook, the local checkout's pages, the OpenAPI document.
 */
const CALL_FAMILIES = ['signIn', 'handoff', 'verify', 'signOut', 'devices', 'checkout', 'cancel', 'deleteAccount', 'billing', 'staff', 'other'] as const;
type CallFamily = (typeof CALL_FAMILIES)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's per-address rate-limit family (server/http/rate-limits.ts); every route under /api names one. */
    rateLimitFamily?: CallFamily;
  }
}
/** What is counted per account; `identity` is every call carrying a verified Firebase ID token. */
const ACCOUNT_FAMILIES = ['identity', 'handoff', 'verify', 'devices', 'deleteAccount', 'billing', 'export'] as const;
export type AccountFamily = (typeof ACCOUNT_FAMILIES)[number];

/** Whether a route's per-address family is also counted per account (a signed-in route's family must be). */
export function isAccountFamily(family: string | undefined): family is AccountFamily {
  return (ACCOUNT_FAMILIES as readonly string[]).includes(family ?? '');
}

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
  staff: 120,
  other: 1200,
};
const PER_ACCOUNT: Record<Exclude<AccountFamily, 'export'>, number> = {
  identity: 20, // sign-in, checkout and cancel together
  handoff: 10,
  verify: 300,
  devices: 30,
  deleteAccount: 3,
  billing: 30,
};

/**
 * Relay API calls per minute per relay token (issue 46, item 13): a relay long-polls (one call per change or
 * per 25 s), fetches the full list now and then and reports every 60 s; changes made meanwhile come in one
 * answer, so even a busy list needs a few calls a second at most. More is a relay polling in a loop.
 */
const RELAY_CALLS_PER_MINUTE = 300;

/** The refusal of a route under /api that names no family: says how to name one. */
function missingFamilyMessage(method: string, url: string): string {
  return (
    `${method} ${url} declares no rate-limit family: add \`config: { rateLimitFamily: '…' }\` to its route options, ` +
    `one of ${CALL_FAMILIES.join(', ')} (server/http/rate-limits.ts; \`other\` only for calls no person makes by hand).`
  );
}

const WINDOW_MS = 60_000;
/** The customer's copy of their data (issue 31): one per account per 10 minutes, a product rule, never scaled. */
const EXPORT_WINDOW_MS = 600_000;
const MESSAGE = 'Too many attempts. Please wait a moment and try again.';

export class RateLimited extends ApiFailure {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', MESSAGE);
  }
}

/** A fixed-window counter: how many hits in the current window, and how long until it ends. */
interface Counter {
  /** `windowMs`: the window's length when this hit starts one (default WINDOW_MS). */
  hit(key: string, windowMs?: number): Promise<{ count: number; ttlMs: number }>;
}

/**
 * Counts in this process. Every window lasts WINDOW_MS and a new one is put at the end of the map (a
 * Map keeps insertion order), so the map is ordered by when windows end: each hit drops the ended ones
 * from the front and stops at the first that runs. That is constant work per hit however many addresses
 * are live (a scan of the whole map cost about 1.25 ms per request above 50,000 keys, issue 34).
 */
export function memoryCounter(windows = new Map<string, { count: number; endsAt: number }>()): Counter {
  // Windows of another length keep an order of their own (the front-first purge needs one length per map).
  const otherLengths = new Map<number, Counter>();
  const standard = memoryCounterOf(windows, WINDOW_MS);
  return {
    async hit(key, windowMs = WINDOW_MS) {
      if (windowMs !== WINDOW_MS) {
        let counter = otherLengths.get(windowMs);
        if (!counter) otherLengths.set(windowMs, (counter = memoryCounterOf(new Map(), windowMs)));
        return counter.hit(key);
      }
      return standard.hit(key);
    },
  };
}

function memoryCounterOf(windows: Map<string, { count: number; endsAt: number }>, windowMs: number): Counter {
  return {
    async hit(key) {
      const now = Date.now();
      for (const [k, w] of windows) {
        if (w.endsAt > now) break;
        windows.delete(k);
      }
      let window = windows.get(key);
      if (!window || window.endsAt <= now) {
        window = { count: 0, endsAt: now + windowMs };
        // Deleted first, so the new window goes to the end of the order.
        windows.delete(key);
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, ttlMs: window.endsAt - now };
    },
  };
}

function redisCounter(redis: Redis): Counter {
  return {
    async hit(key, windowMs = WINDOW_MS) {
      // The window starts with the first hit (NX): later hits must not push its end further away.
      const results = await redis.multi().incr(key).pexpire(key, windowMs, 'NX').pttl(key).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      const ttlMs = Number(results?.[2]?.[1] ?? windowMs);
      return { count, ttlMs: ttlMs > 0 ? ttlMs : windowMs };
    },
  };
}

/** How long Redis may take to connect, or to answer one command, before the limits count in memory. */
const REDIS_CONNECT_TIMEOUT_MS = 2000;
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** After a failed command, how long to count in memory before asking Redis again. */
const REDIS_RETRY_AFTER_MS = 5000;

interface SharedCounter extends Counter {
  /**
   * Whether the counts are shared through Redis; while they are not, asks Redis once (within the command
   * timeout, at most every REDIS_RETRY_AFTER_MS), so a Redis that stalled and came back on the same
   * connection is seen again without any call to count (issue 34).
   */
  shared(): Promise<boolean>;
  close(): void;
}

/**
 * Counts in Redis while it answers and in this process's memory while it does not (issue 23, as the
 * architecture promises: an outage degrades limiting, never the service). Never waits on Redis longer
 * than a command timeout, never queues commands for later, and logs once per change of state.
 */
function redisOrMemoryCounter(url: string, log: FastifyBaseLogger): SharedCounter & { connected: Promise<void> } {
  const redis = new Redis(url, {
    lazyConnect: true,
    // A command while Redis is away fails at once instead of waiting in a queue for it to come back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    // A Redis that accepted the connection but never answers must not hold requests.
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  const memory = memoryCounter();
  const inRedis = redisCounter(redis);
  let state: 'starting' | 'shared' | 'local' = 'starting';
  let retryAt = 0;
  const goLocal = (reason: string) => {
    retryAt = Date.now() + REDIS_RETRY_AFTER_MS;
    if (state === 'local') return;
    state = 'local';
    log.warn(`Redis unavailable (${reason}): rate limits are counted in this process's memory until it answers`);
  };
  // A Redis that stalls and recovers keeps its connection: no 'ready' follows, so an answer says it.
  const goShared = () => {
    if (state !== 'shared') log.info('Redis answers: rate limits are shared by every instance');
    state = 'shared';
    retryAt = 0;
  };
  redis.on('ready', goShared);
  // Heard, so ioredis does not print "Unhandled error event"; it keeps reconnecting by itself.
  redis.on('error', (error: Error) => goLocal(error.message));
  redis.on('close', () => {
    if (state === 'shared') goLocal('connection closed');
  });
  // A Redis that accepts the connection and never answers sends no error: say so once it is late.
  const connected = new Promise<void>((resolve) => {
    const late = setTimeout(() => {
      if (state === 'starting') goLocal(`no answer within ${REDIS_CONNECT_TIMEOUT_MS / 1000} s`);
      resolve();
    }, REDIS_CONNECT_TIMEOUT_MS);
    late.unref();
    redis.once('ready', () => {
      clearTimeout(late);
      resolve();
    });
  });
  redis.connect().catch(() => {
    // Reported through the 'error' listener; ioredis retries on its own.
  });
  return {
    connected,
    async shared() {
      if (state === 'shared') return true;
      if (redis.status !== 'ready' || Date.now() < retryAt) return false;
      try {
        await redis.ping();
        goShared();
        return true;
      } catch (error) {
        goLocal((error as Error).message);
        return false;
      }
    },
    async hit(key, windowMs) {
      if (redis.status !== 'ready' || Date.now() < retryAt) return memory.hit(key, windowMs);
      try {
        const hit = await inRedis.hit(key, windowMs);
        goShared();
        return hit;
      } catch (error) {
        goLocal((error as Error).message);
        return memory.hit(key, windowMs);
      }
    },
    close: () => redis.disconnect(),
  };
}

/**
 * @fastify/rate-limit's store interface, on our counter: one key per route and client address. The
 * plugin builds a child per route (`child`), each counting under its method and URL.
 */
function addressStore(counter: Counter, prefix = '') {
  return class AddressStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
      counter.hit(`${prefix}${key}`).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }
    // Typed as the route's options, given (at run time) the merged limit options with the route as routeInfo.
    child(options: RouteOptions) {
      const route = (options as unknown as { routeInfo: RouteOptions }).routeInfo;
      const Child = addressStore(counter, `${prefix}${String(route.method)}${route.url}-`);
      return new Child();
    }
  };
}

export interface RateLimits {
  /** Whether the counts are shared through Redis right now; null without REDIS_URL (readiness). */
  sharedInRedis(): Promise<boolean | null>;
  /** Counts one call of `family` for `accountId`; a RateLimited failure over the limit. */
  forAccount(family: AccountFamily, accountId: string): Promise<void>;
  /** Counts one relay API call of the relay whose token it carries (RELAY_CALLS_PER_MINUTE); RateLimited over it. */
  forRelay(relayId: string): Promise<void>;
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

  // Counters in Redis when configured (shared by every instance), in memory otherwise or while it is away.
  const shared = config.redisUrl ? redisOrMemoryCounter(config.redisUrl, app.log) : null;
  if (shared) {
    // Start with the counts shared when Redis answers promptly; start anyway when it does not.
    await shared.connected;
    app.addHook('onClose', async () => shared.close());
  }
  const counter: Counter = shared ?? memoryCounter();
  const keyed = (prefix: string): Counter => ({ hit: (key, windowMs) => counter.hit(`${config.redisKeyPrefix}${prefix}${key}`, windowMs) });
  const accountCounter = keyed('account:');

  async function forAccount(family: AccountFamily, accountId: string) {
    if (family === 'export') {
      const hit = await accountCounter.hit(`${family}:${accountId}`, EXPORT_WINDOW_MS);
      if (hit.count > 1) throw new RateLimited(Math.ceil(hit.ttlMs / 1000));
      return;
    }
    const hit = await accountCounter.hit(`${family}:${accountId}`);
    if (hit.count > scaled(PER_ACCOUNT[family])) throw new RateLimited(Math.ceil(hit.ttlMs / 1000));
  }

  // Runs before the plugin's own onRoute hook, so each route arrives with its family's limit.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/')) return;
    const family = (route.config as { rateLimitFamily?: CallFamily } | undefined)?.rateLimitFamily;
    if (!family || !CALL_FAMILIES.includes(family)) {
      throw new Error(missingFamilyMessage(Array.isArray(route.method) ? route.method.join(',') : route.method, route.url));
    }
    route.config = { ...(route.config as object), rateLimit: { max: perAddress(family), timeWindow: WINDOW_MS } };
  });

  await app.register(rateLimit, {
    global: false,
    store: addressStore(keyed('address:')),
    skipOnError: true,
    errorResponseBuilder: (_request, context) => new RateLimited(Math.ceil(context.ttl / 1000)),
  });

  const relayCounter = keyed('relay:');
  async function forRelay(relayId: string) {
    const hit = await relayCounter.hit(relayId);
    if (hit.count > scaled(RELAY_CALLS_PER_MINUTE)) throw new RateLimited(Math.ceil(hit.ttlMs / 1000));
  }

  return {
    sharedInRedis: async () => (shared ? shared.shared() : null),
    forAccount,
    forRelay,
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

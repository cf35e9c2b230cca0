/**
 * What an on-call engineer watches (issue 23, docs/operations.md): GET /api/metrics in Prometheus text
 * format. fastify-metrics serves it with the process's own metrics; the per-route request-duration
 * histogram (labelled by route, method and status, as fastify-metrics names it) and the product counters
 * are here, each with few label values (never an id or an e-mail address), counted in one response hook
 * with each label set's series looked up once (issue 32: fastify-metrics' timers cost a closure, a WeakMap
 * entry and a label hash per request).
 *
 * Every app instance has its own registry: tests build many apps in one process, and each counts its own.
 * In production the endpoint answers only with `Authorization: Bearer <METRICS_TOKEN>` (404 otherwise, as
 * for a call that does not exist).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import client from '@prometheus-io/client';
import fastifyMetrics from 'fastify-metrics';
import type { Config } from '../config.ts';
import type { RelayServerFigures } from '../domain/devices/relay-servers.ts';

/** A counter as the rest of the server uses it. */
interface Count<L extends string = never> {
  inc(labels?: Partial<Record<L, string>>, value?: number): void;
}
/** A histogram as the rest of the server uses it. */
interface Distribution<L extends string = never> {
  observe(labels: Partial<Record<L, string>>, value: number): void;
}

export interface ProductMetrics {
  /** Sign-ins by provider (google, apple) and outcome (success, refused, failed). */
  signIns: Count<'provider' | 'outcome'>;
  /** Checkouts asked for, by outcome. */
  checkouts: Count<'outcome'>;
  /** Payment-provider events received (signature verified), by type and outcome (applied, duplicate, …, error). */
  webhookEvents: Count<'type' | 'outcome'>;
  /** Seconds between an event's creation at the provider and its arrival here. */
  webhookLag: Distribution<'type'>;
  jobsQueued: Count<'queue'>;
  /** Failed job attempts by queue; final="true" when no retry follows. */
  jobsFailed: Count<'queue' | 'final'>;
  /** E-mails handed to the mail server, and attempts it refused (the mail worker counts them). */
  mailSent: Count<'template'>;
  mailFailed: Count<'template'>;
  /** 429 answers by route. */
  rateLimitRefusals: Count<'route'>;
  /** Requests Node's HTTP parser or Fastify refused before a route ran, by kind. */
  malformedRequests: Count<'kind'>;
  /** Refunds that failed for good (refused by the provider, or failed after being made): page someone. */
  refundsFailed: Count;
  /** Refund jobs that ran out of retries (the provider never answered): the refund failed for good. */
  refundsGaveUp: Count;
  /** Requests answered 503 because the database did not answer in time or dropped the connection. */
  databaseUnavailable: Count;
  /** Unix time of each VPN server's last poll of the peer list, by relay id (RELAY_TOKENS names them). */
  relayLastPoll: { set(labels: { relay: string }, value: number): void };
  /** Full peer lists built (serialized); every other full poll of a version is answered from the one built. */
  relayFullListBuilds: Count;
  /** Relay long polls waiting now (each holds a listener, not a database connection). */
  relayWaitingPolls: { inc(): void; dec(): void };
  /** Relay API calls refused with 429 by the per-token limit, by relay id: a relay polling too often. */
  relayCallsRefused: Count<'relay'>;
  /**
   * Per catalogue server (label: its id only), read from the database at each scrape, so every instance
   * shows the same: peers, active peers, version lag, seconds since its last report, load in percent.
   */
  observeRelayServers(read: () => Promise<RelayServerFigures[]>): void;
}


const METRICS_URL = '/api/metrics';
/** Not timed, as fastify-metrics did not: HEAD doubles every GET, the others are not calls of ours. */
const UNTIMED_METHODS = new Set(['HEAD', 'OPTIONS', 'TRACE', 'CONNECT']);

/** One series (a metric's child for one label set) per route, method and status, made on first use. */
class SeriesCache<S> {
  private readonly byRoute = new Map<string, Map<string, Map<number, S>>>();
  constructor(private readonly make: (method: string, route: string, status: number) => S) {}

  get(method: string, route: string, status: number): S {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = this.make(method, route, status)));
    return series;
  }
}

function outcomeOf(status: number): string {
  return status < 400 ? 'success' : status < 500 ? 'refused' : 'failed';
}

function bearerMatches(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** How a request the metrics endpoint refuses is answered: as for a call that does not exist (server/http). */
type Refusal = (request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * Registers GET /api/metrics and the request histograms (on every route added after it), and returns
 * the product counters. Call before the routes are registered. `refuse` answers a scrape without the
 * token in production.
 */
export async function registerMetrics(app: FastifyInstance, config: Config, refuse: Refusal): Promise<ProductMetrics> {
  // The Prometheus client fastify-metrics itself depends on (the same version range, so npm keeps one copy).
  const registry = new client.Registry();
  const registers = [registry];
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.production) return;
    if (!config.metricsToken || !bearerMatches(request, config.metricsToken)) return refuse(request, reply);
  };
  await app.register(fastifyMetrics, {
    promClient: client,
    endpoint: {
      url: METRICS_URL,
      method: 'GET',
      // Scraped every few seconds: not worth a log line each time.
      logLevel: 'warn',
      schema: { hide: true },
      config: { disableMetrics: true },
      onRequest: guard,
      handler: () => undefined,
    },
    defaultMetrics: { enabled: true, register: registry },
    // The request histogram is ours (below), with the same name, labels and buckets.
    routeMetrics: { enabled: false },
  });

  const counter = <L extends string>(name: string, help: string, labelNames: L[] = []) =>
    new client.Counter<L>({ name, help, labelNames, registers }) as Count<L>;
  const metrics: ProductMetrics = {
    signIns: counter('veil_sign_ins_total', 'Sign-ins by provider and outcome', ['provider', 'outcome']),
    checkouts: counter('veil_checkouts_total', 'Checkouts asked for, by outcome', ['outcome']),
    webhookEvents: counter('veil_webhook_events_total', 'Payment events received, by type and outcome', ['type', 'outcome']),
    webhookLag: new client.Histogram<'type'>({
      name: 'veil_webhook_event_lag_seconds',
      help: 'Seconds from a payment event created at the provider to its arrival',
      labelNames: ['type'],
      buckets: [1, 5, 15, 60, 300, 900, 3600, 21_600, 86_400],
      registers,
    }),
    jobsQueued: counter('veil_jobs_queued_total', 'Jobs enqueued, by queue', ['queue']),
    jobsFailed: counter('veil_jobs_failed_total', 'Failed job attempts, by queue; final="true" when no retry follows', ['queue', 'final']),
    mailSent: counter('veil_mail_sent_total', 'E-mails accepted by the mail server', ['template']),
    mailFailed: counter('veil_mail_failed_total', 'E-mail attempts that failed', ['template']),
    rateLimitRefusals: counter('veil_rate_limit_refusals_total', 'Calls refused with 429, by route', ['route']),
    malformedRequests: counter('veil_malformed_requests_total', 'Requests refused before a route ran, by kind', ['kind']),
    refundsFailed: counter('veil_refunds_failed_total', 'Refunds that failed for good: support must contact the customer'),
    refundsGaveUp: counter('veil_refunds_gave_up_total', 'Refund jobs that ran out of retries: the refund failed for good, support must contact the customer'),
    databaseUnavailable: counter('veil_database_unavailable_total', 'Requests answered 503 because the database did not answer'),
    relayLastPoll: new client.Gauge<'relay'>({
      name: 'veil_relay_last_poll_seconds',
      help: "Unix time of each VPN server's last poll of the peer list (alert when one falls behind)",
      labelNames: ['relay'],
      registers,
    }),
    relayFullListBuilds: counter('veil_relay_full_list_builds_total', 'Full peer lists built; the other full polls of a version reuse the one built'),
    relayWaitingPolls: new client.Gauge({ name: 'veil_relay_waiting_polls', help: 'Relay long polls waiting for a change now', registers }),
    relayCallsRefused: counter('veil_relay_calls_refused_total', 'Relay API calls refused by the per-token rate limit, by relay id', ['relay']),
    observeRelayServers: (read) => {
      // One read per scrape, shared by the five gauges.
      let reading: { at: number; figures: Promise<RelayServerFigures[]> } | null = null;
      const figures = () => {
        if (!reading || Date.now() - reading.at > 1000) reading = { at: Date.now(), figures: read().catch(() => []) };
        return reading.figures;
      };
      const gauge = (name: string, help: string, pick: (each: RelayServerFigures) => number | null) =>
        new client.Gauge<'server'>({
          name,
          help,
          labelNames: ['server'],
          registers,
          async collect() {
            this.reset();
            for (const each of await figures()) {
              const value = pick(each);
              if (value !== null) this.set({ server: each.serverId }, value);
            }
          },
        });
      gauge('veil_relay_peers', 'Peers on each VPN server, as its last health report said', (each) => each.peers);
      gauge('veil_relay_active_peers', 'Peers with a handshake in the last 180 s on each VPN server (a count)', (each) => each.activePeers);
      gauge('veil_relay_version_lag', "The peer list's version minus the version each VPN server reported applied", (each) => each.versionLag);
      gauge('veil_relay_seconds_since_report', "Seconds since each VPN server's last health report (alert above three intervals)", (each) => each.secondsSinceReport);
      gauge('veil_relay_load_percent', 'Active peers over capacity, in percent, per VPN server', (each) => each.load);
    },
  };

  const requestDuration = new client.Histogram<'method' | 'route' | 'status_code'>({
    name: 'http_request_duration_seconds',
    help: 'request duration in seconds',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const durationSeries = new SeriesCache((method: string, route: string, status: number) =>
    requestDuration.labels({ method, route, status_code: String(status) }),
  );
  // Outcomes read from the answer, so the routes stay as they are; looked up by route, not matched per request.
  const outcomeCounters = new Map<string, (status: number) => void>([
    ['/api/auth/google/signin', (status) => metrics.signIns.inc({ provider: 'google', outcome: outcomeOf(status) })],
    ['/api/auth/apple/signin', (status) => metrics.signIns.inc({ provider: 'apple', outcome: outcomeOf(status) })],
    ['/api/subscription/create-checkout', (status) => metrics.checkouts.inc({ outcome: outcomeOf(status) })],
  ]);
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    // Answers of no route (a 404 of an unknown path, a refused URL) have no route label to count under.
    if (route === undefined) return done();
    const status = reply.statusCode;
    if (!UNTIMED_METHODS.has(request.method) && (request.routeOptions.config as { disableMetrics?: boolean }).disableMetrics !== true) {
      durationSeries.get(request.method, route, status).observe(reply.elapsedTime / 1000);
    }
    if (status === 429) metrics.rateLimitRefusals.inc({ route });
    outcomeCounters.get(route)?.(status);
    done();
  });
  return metrics;
}

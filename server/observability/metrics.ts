/**
 * What an on-call engineer watches (issue 23, docs/operations.md): GET /api/metrics in Prometheus text
 * format. fastify-metrics gives per-route request-duration histograms (labelled by route, method and
 * status) and the process's own metrics; the product counters are here, each with few label values
 * (never an id or an e-mail address).
 *
 * Every app instance has its own registry: tests build many apps in one process, and each counts its own.
 * In production the endpoint answers only with `Authorization: Bearer <METRICS_TOKEN>` (404 otherwise, as
 * for a call that does not exist).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMetrics from 'fastify-metrics';
import { resolveClient } from 'fastify-metrics/dist/resolve-client.js';
import type { Config } from '../config.ts';
import { noSuchCall } from '../http/framework-errors.ts';

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
  /** Requests answered 503 because the database did not answer in time or dropped the connection. */
  databaseUnavailable: Count;
  /** Unix time of each VPN server's last poll of the peer list, by relay id (RELAY_TOKENS names them). */
  relayLastPoll: { set(labels: { relay: string }, value: number): void };
}

const METRICS_URL = '/api/metrics';

function outcomeOf(status: number): string {
  return status < 400 ? 'success' : status < 500 ? 'refused' : 'failed';
}

function bearerMatches(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Registers GET /api/metrics and the request histograms (on every route added after it), and returns
 * the product counters. Call before the routes are registered.
 */
export async function registerMetrics(app: FastifyInstance, config: Config): Promise<ProductMetrics> {
  // The Prometheus client fastify-metrics itself uses (the same package, so no second copy to keep in step).
  const client = await resolveClient();
  const registry = new client.Registry();
  const registers = [registry];
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.production) return;
    if (!config.metricsToken || !bearerMatches(request, config.metricsToken)) return noSuchCall(request, reply);
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
    routeMetrics: {
      enabled: { histogram: true, summary: false },
      overrides: {
        histogram: { registers, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] },
        // Made even when disabled: in our registry, or a second app in one process would find it taken.
        summary: { registers },
      },
    },
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
    databaseUnavailable: counter('veil_database_unavailable_total', 'Requests answered 503 because the database did not answer'),
    relayLastPoll: new client.Gauge<'relay'>({
      name: 'veil_relay_last_poll_seconds',
      help: "Unix time of each VPN server's last poll of the peer list (alert when one falls behind)",
      labelNames: ['relay'],
      registers,
    }),
  };

  // Outcomes read from the answer, so the routes stay as they are.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route) return;
    const status = reply.statusCode;
    if (status === 429) metrics.rateLimitRefusals.inc({ route });
    const signIn = /^\/api\/auth\/(google|apple)\/signin$/.exec(route);
    if (signIn) metrics.signIns.inc({ provider: signIn[1], outcome: outcomeOf(status) });
    else if (route === '/api/subscription/create-checkout') metrics.checkouts.inc({ outcome: outcomeOf(status) });
  });
  return metrics;
}

/**
 * The API as a Fastify instance: JSON under /api, the payment webhook, the local checkout, and the built
 * SPA on the same origin. `buildApp` takes every dependency, so tests drive it with `inject` and their
 * own database, verifier and payment provider.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { fastifyTrustProxy, type Config } from './config.ts';
import { bindDomain } from './domain/bound.ts';
import { startPeerLogSignal } from './domain/devices/peer-log-signal.ts';
import { relayServerFigures } from './vpn/server-status.ts';
import { watchCatalogue } from './vpn/catalogue-reload.ts';
import type { Database } from './domain/store.ts';
import { createFirebaseIdentityAdmin } from './identity/admin.ts';
import type { IdentityVerifier } from './identity/verifier.ts';
import type { IdentityAdmin } from './domain/accounts/identity-admin.ts';
import { accountRoutes } from './http/account-routes.ts';
import { authRoutes } from './http/auth-routes.ts';
import { staffRoutes } from './http/staff-routes.ts';
import { billingRoutes } from './http/billing-routes.ts';
import { responseCompression } from './http/compression.ts';
import type { AppDeps } from './http/context.ts';
import { devRoutes } from './http/dev-routes.ts';
import { apiErrorHandler, clientErrorHandler, frameworkErrorHandler, noSuchCall } from './http/framework-errors.ts';
import { healthRoutes } from './http/health-routes.ts';
import { logSerializers, redactLogMessages } from './http/log-redaction.ts';
import { openApiDocumentRoute, registerOpenApi } from './http/openapi.ts';
import { paymentRoutes } from './http/payment-routes.ts';
import { registerRateLimits } from './http/rate-limits.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { spaRoutes } from './http/spa.ts';
import { relayRoutes } from './http/relay-routes.ts';
import { vpnRoutes } from './http/vpn-routes.ts';
import { subscriptionRoutes } from './http/subscription-routes.ts';
import { contractValidatorCompiler } from './http/validation.ts';
import { registerMetrics, type ProductMetrics } from './observability/metrics.ts';
import { readiness } from './observability/readiness.ts';
import type { Tracing } from './observability/tracing.ts';
import { startWorkers, type WorkerOptions } from './workers.ts';

/**
 * Headers that carry credentials. Bodies (where the tokens travel) are never logged, requests are logged
 * by their route pattern, and errors and messages go through one redaction (server/http/log-redaction.ts,
 * server/observability/redaction.ts), so no token, hash, bearer id, address or e-mail reaches the logs
 * (tests/server/log-redaction.test.ts and tests/server/zero-log-journey.test.ts check whole journeys).
 */
const REDACTED = [
  'req.headers.authorization',
  'req.headers["stripe-signature"]',
  'req.headers.cookie',
];

/** What the app is built from; tests give their own database, verifier, provider, queue and mail settings. */
export interface BuildOptions extends Pick<WorkerOptions, 'payments' | 'jobs' | 'mail'> {
  config: Config;
  database: Database;
  verifier: IdentityVerifier;
  /** The identity provider's admin side; by default firebase-admin on the configured project (or emulator). */
  identityAdmin?: IdentityAdmin;
  logger?: boolean;
  /** Where log lines go (tests read them); standard output by default. */
  logDestination?: { write: (line: string) => void };
  /** @fastify/otel's plugin and the log lines' trace ids, when tracing is on (server/observability/tracing.ts). */
  tracing?: Pick<Tracing, 'plugin' | 'logMixin'>;
  /** The servers' status's clock (tests move it on to see a server fall silent); real time by default. */
  statusNow?: () => Date;
}

export async function buildApp({ config, database, verifier, identityAdmin, payments, jobs, mail = {}, logger = true, logDestination, tracing, statusNow }: BuildOptions): Promise<FastifyInstance> {
  // Filled in once they exist: a connection refused before then is neither logged nor counted.
  const later: { log?: FastifyBaseLogger; metrics: ProductMetrics | null } = { metrics: null };
  const app = Fastify({
    logger: logger
      ? {
          level: config.logLevel,
          redact: { paths: REDACTED, censor: '[redacted]' },
          serializers: logSerializers,
          hooks: redactLogMessages,
          ...(logDestination ? { stream: logDestination } : {}),
          // With tracing on, each entry inside a request names its trace.
          ...(tracing ? { mixin: tracing.logMixin } : {}),
        }
      : false,
    // Every failure is {success:false,error,code} JSON, also for a URL Fastify cannot decode or a broken request.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: (error, socket) => clientErrorHandler(error, socket, later.log, later.metrics),
    bodyLimit: 32 * 1024,
    // A request (headers and body) must arrive within REQUEST_TIMEOUT: a body trickled a byte at a time
    // would otherwise hold its connection for ever. Node checks every second (its default is 30 s), and
    // a socket silent for twice as long is closed.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs * 2,
    http: { connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs), headersTimeout: config.requestTimeoutMs },
    // Rate limits key on the client address: trust X-Forwarded-For only when told a proxy sets it.
    trustProxy: fastifyTrustProxy(config.trustProxy),
  });

  later.log = app.log;
  // First, so every request (and every hook of it) is inside its span.
  if (tracing) await app.register(tracing.plugin);
  // A connection PostgreSQL dropped while idle: the pool replaces it; one line, no stack.
  database.onConnectionError((error) => app.log.warn(`database connection lost while idle (${error.message}); the pool replaces it`));
  const metrics = await registerMetrics(app, config, noSuchCall);
  later.metrics = metrics;
  const workers = await startWorkers(app, { config, database, metrics, mail, ...(payments && { payments }), ...(jobs && { jobs }) });

  // Helmet's headers, computed once: the document set on pages and API answers, the asset set on static files.
  registerSecurityHeaders(app, config);
  // Before every route: JSON answers over 1 KB are compressed (static files and pages come precompressed).
  await responseCompression(app);
  const limits = await registerRateLimits(app, config);
  // The relays' long polls wait on it (no relay tokens: no relay API, nothing to wake). Released before the
  // server stops taking requests, so a shutdown never waits for a 25 s poll.
  const peerLog = config.relayTokens.size > 0 ? await startPeerLogSignal(database) : null;
  if (peerLog) app.addHook('preClose', async () => peerLog.close());
  const domain = bindDomain(database, workers.jobs);
  if (config.vpnServersPath) {
    const catalogue = watchCatalogue(config, config.vpnServersPath, app.log);
    app.addHook('onClose', async () => catalogue.close());
  }
  const deps: AppDeps = {
    config,
    domain,
    applyPaymentEvent: workers.applyPaymentEvent,
    verifier: limits.countVerifiedIdentities(verifier),
    identityAdmin: identityAdmin ?? createFirebaseIdentityAdmin(config.firebaseProjectId, config.firebaseEmulatorHost),
    payments: workers.payments,
    localCheckout: workers.localCheckout,
    billingNow: workers.billingNow,
    billingNowWith: workers.billingNowWith,
    limits,
    jobs: workers.jobs,
    metrics,
    peerLog,
    statusNow: statusNow ?? (() => new Date()),
  };
  metrics.observeRelayServers(() => relayServerFigures(config, domain.relay.serverStates));

  app.setErrorHandler((error, request, reply) => apiErrorHandler(error as never, request, reply, metrics));
  // Routes declare their schemas from the contract: requests validated, answers checked and serialised.
  app.setValidatorCompiler(contractValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerOpenApi(app, config.publicUrl);

  await app.register(
    async (api) => {
      const probes = { databaseUp: () => database.ping(), readiness: () => readiness({ database, jobs: workers.jobs, limits }) };
      await api.register((scope) => healthRoutes(scope, probes));
      await api.register((scope) => authRoutes(scope, deps), { prefix: '/auth' });
      await api.register((scope) => subscriptionRoutes(scope, deps), { prefix: '/subscription' });
      await api.register((scope) => paymentRoutes(scope, deps));
      await api.register((scope) => billingRoutes(scope, deps), { prefix: '/billing' });
      await api.register((scope) => accountRoutes(scope, deps), { prefix: '/account' });
      await api.register((scope) => staffRoutes(scope, deps), { prefix: '/staff' });
      await api.register((scope) => devRoutes(scope, deps), { prefix: '/dev' });
      await api.register((scope) => vpnRoutes(scope, deps), { prefix: '/vpn' });
      await api.register((scope) => relayRoutes(scope, deps), { prefix: '/relay' });
      openApiDocumentRoute(api, app);
    },
    { prefix: '/api' },
  );

  const servesSpa = await spaRoutes(app, config);
  if (!servesSpa) {
    app.log.warn(`no built website at ${config.staticDir}: serving the API only (run npm run build)`);
    app.setNotFoundHandler(noSuchCall);
  }
  return app;
}

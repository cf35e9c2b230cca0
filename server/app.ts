/**
 * The API as a Fastify instance: JSON under /api, the payment webhook, the local checkout, and the built
 * SPA on the same origin. `buildApp` takes every dependency, so tests drive it with `inject` and their
 * own database, verifier and payment provider.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { healthResponseSchema, liveResponseSchema, readyResponseSchema } from '../contract/api.ts';
import { fastifyTrustProxy, type Config } from './config.ts';
import { bindDomain } from './domain/bound.ts';
import type { Database } from './domain/store.ts';
import { createFirebaseIdentityAdmin } from './identity/admin.ts';
import type { IdentityVerifier } from './identity/verifier.ts';
import type { IdentityAdmin } from './domain/identity-admin.ts';
import { startBillingJobs } from './jobs/billing-jobs.ts';
import { startRetentionPurge } from './jobs/retention-purge-job.ts';
import { startJobQueue, type JobQueue, type RetryPolicy } from './jobs/queue.ts';
import { startMailWorker, type MailCounters, newMailCounters } from './mail/mail-worker.ts';
import { startRenewalSweep } from './mail/renewal-sweep.ts';
import { accountRoutes } from './http/account-routes.ts';
import { authRoutes } from './http/auth-routes.ts';
import { staffRoutes } from './http/staff-routes.ts';
import { billingRoutes } from './http/billing-routes.ts';
import { responseCompression } from './http/compression.ts';
import type { AppDeps } from './http/context.ts';
import { devRoutes } from './http/dev-routes.ts';
import { createWebhookReceiver, paymentRoutes } from './http/payment-routes.ts';
import { registerOpenApi } from './http/openapi.ts';
import { answers } from './http/route-schemas.ts';
import { registerRateLimits } from './http/rate-limits.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { spaRoutes } from './http/spa.ts';
import { subscriptionRoutes } from './http/subscription-routes.ts';
import { LocalPaymentProvider } from './payments/local-provider.ts';
import type { PaymentProvider } from './domain/payment-provider.ts';
import { bindPaymentEvents } from './payments/events.ts';
import { signPayload } from './payments/signature.ts';
import { logSerializers, redactLogMessages } from './http/log-redaction.ts';
import { apiErrorHandler, clientErrorHandler, frameworkErrorHandler, noSuchCall } from './http/framework-errors.ts';
import { registerMetrics, type ProductMetrics } from './observability/metrics.ts';
import { readiness } from './observability/readiness.ts';
import type { Tracing } from './observability/tracing.ts';
import { contractValidatorCompiler } from './http/validation.ts';

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

export interface BuildOptions {
  config: Config;
  database: Database;
  verifier: IdentityVerifier;
  /** The identity provider's admin side; by default firebase-admin on the configured project (or emulator). */
  identityAdmin?: IdentityAdmin;
  /** Overrides the provider chosen from the configuration (tests). */
  payments?: PaymentProvider;
  /** The job queue; by default one on `database`, stopped when the app closes. */
  jobs?: JobQueue;
  /** The mail worker's counters (metrics, tests) and retries (tests shorten them). */
  mail?: { counters?: MailCounters; retry?: Partial<RetryPolicy> };
  logger?: boolean;
  /** Where log lines go (tests read them); standard output by default. */
  logDestination?: { write: (line: string) => void };
  /** @fastify/otel's plugin and the log lines' trace ids, when tracing is on (server/observability/tracing.ts). */
  tracing?: Pick<Tracing, 'plugin' | 'logMixin'>;
}

export async function buildApp({ config, database, verifier, identityAdmin, payments, jobs: givenJobs, mail = {}, logger = true, logDestination, tracing }: BuildOptions): Promise<FastifyInstance> {
  // Set once the metrics exist; requests refused before then are not counted.
  let metrics: ProductMetrics | null = null;
  let log: FastifyBaseLogger | undefined;
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
    clientErrorHandler: (error, socket) => clientErrorHandler(error, socket, log, metrics),
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

  log = app.log;
  // First, so every request (and every hook of it) is inside its span.
  if (tracing) await app.register(tracing.plugin);
  // A connection PostgreSQL dropped while idle: the pool replaces it; one line, no stack.
  database.onConnectionError((error) => app.log.warn(`database connection lost while idle (${error.message}); the pool replaces it`));
  const productMetrics = await registerMetrics(app, config);
  metrics = productMetrics;

  const jobs =
    givenJobs ??
    (await startJobQueue(database, {
      events: {
        queued: (name) => productMetrics.jobsQueued.inc({ queue: name }),
        failed: (name, error, attempt, final) => {
          productMetrics.jobsFailed.inc({ queue: name, final: String(final) });
          // A job that will be retried is ordinary weather; one that failed for good needs a person.
          if (final) app.log.error({ err: error, queue: name, job: attempt.id }, `job ${name} failed for good after ${attempt.retryCount + 1} attempts`);
          else app.log.warn({ err: error, queue: name, job: attempt.id }, `job ${name} failed (attempt ${attempt.retryCount + 1}); it will be retried`);
        },
      },
    }));
  if (!givenJobs) app.addHook('onClose', () => jobs.stop());
  // Customer e-mail (issue 21): the queue is declared before any route can owe a message.
  const closeMailer = await startMailWorker(jobs, {
    db: database.db,
    config,
    log: app.log,
    counters: mail.counters ?? newMailCounters(),
    ...(mail.retry ? { retry: mail.retry } : {}),
    observe: (outcome, kind) => (outcome === 'sent' ? productMetrics.mailSent : productMetrics.mailFailed).inc({ template: kind }),
  });
  app.addHook('onClose', async () => closeMailer());

  const localCheckout = config.stripe
    ? null
    : new LocalPaymentProvider(
        database.db,
        config.publicUrl,
        async (event) => {
          const raw = JSON.stringify(event);
          await receiveLocal(raw, signPayload(raw, config.localWebhookSecret));
        },
        // Each run of the billing clock (start-up, hourly, billing:advance) also owes the notices now due.
        (now) => renewalSweep.sweepNow(now).then(() => undefined),
      );
  const renewalSweep = await startRenewalSweep(jobs, database.db, () => (localCheckout ? localCheckout.clockNow() : Promise.resolve(new Date())));
  // Routes and the webhook receiver are handed domain calls bound to the database, never the handle itself.
  const applyPaymentEvent = bindPaymentEvents(database.db);
  const receiveLocal = createWebhookReceiver({ applyPaymentEvent, metrics: productMetrics, jobs }, config.localWebhookSecret, 'local');
  const provider: PaymentProvider =
    payments ??
    (config.stripe
      ? // Stripe's SDK is loaded only where it is configured (issue 32: start-up loads what it needs).
        new (await import('./payments/stripe-provider.ts')).StripePaymentProvider({ ...config.stripe, publicUrl: config.publicUrl })
      : (localCheckout as LocalPaymentProvider));
  if (localCheckout) startBillingClock(app, localCheckout);
  await startBillingJobs(database.db, provider, jobs, config.billingJobRetryDelaySeconds, () => productMetrics.refundsFailed.inc());
  // Expired data goes every day, and now (what expired while the API was down): the retention list's periods.
  await startRetentionPurge(jobs, database.db, config.deletedAccountCooldownSeconds, app.log);

  // Helmet's headers, computed once: the document set on pages and API answers, the asset set on static files.
  registerSecurityHeaders(app, config);
  // Before every route: JSON answers over 1 KB are compressed (static files and pages come precompressed).
  await responseCompression(app);
  const limits = await registerRateLimits(app, config);
  const deps: AppDeps = {
    config,
    domain: bindDomain(database),
    applyPaymentEvent,
    verifier: limits.countVerifiedIdentities(verifier),
    identityAdmin: identityAdmin ?? createFirebaseIdentityAdmin(config.firebaseProjectId, config.firebaseEmulatorHost),
    payments: provider,
    localCheckout,
    limits,
    jobs,
    metrics: productMetrics,
  };

  app.setErrorHandler((error, request, reply) => apiErrorHandler(error as never, request, reply, productMetrics));
  // Routes declare their schemas from the contract: requests validated, answers checked and serialised.
  app.setValidatorCompiler(contractValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerOpenApi(app, config.publicUrl);

  await app.register(
    async (api) => {
      // Liveness: the process answers (no dependency touched). /health: the database; /ready: every dependency.
      api.get('/live', { schema: { summary: 'Liveness', tags: ['health'], response: answers(liveResponseSchema) } }, async () => ({
        ok: true,
      }));
      const healthAnswers = { ...answers(healthResponseSchema), 503: healthResponseSchema };
      const healthSchema = { summary: 'Readiness (the database)', tags: ['health'], response: healthAnswers };
      api.get('/health', { schema: healthSchema }, async (_request, reply) => {
        const databaseUp = await database.ping().catch(() => false);
        return reply.code(databaseUp ? 200 : 503).send({ ok: databaseUp, database: databaseUp });
      });
      const readySchema = {
        summary: 'Readiness (the database, Redis when configured, the job queue)',
        tags: ['health'],
        response: { ...answers(readyResponseSchema), 503: readyResponseSchema },
      };
      api.get('/ready', { schema: readySchema }, async (_request, reply) => {
        const answer = await readiness({ database, jobs, limits });
        return reply.code(answer.ok ? 200 : 503).send(answer);
      });
      await api.register((scope) => authRoutes(scope, deps), { prefix: '/auth' });
      await api.register((scope) => subscriptionRoutes(scope, deps), { prefix: '/subscription' });
      await api.register((scope) => paymentRoutes(scope, deps));
      await api.register((scope) => billingRoutes(scope, deps), { prefix: '/billing' });
      await api.register((scope) => accountRoutes(scope, deps), { prefix: '/account' });
      await api.register((scope) => staffRoutes(scope, deps), { prefix: '/staff' });
      await api.register((scope) => devRoutes(scope, deps), { prefix: '/dev' });
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
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

/** The local checkout renews and ends subscriptions as their periods end: at start-up, then hourly. */
function startBillingClock(app: FastifyInstance, local: LocalPaymentProvider) {
  const run = () =>
    local.runBillingCycle().catch((error: unknown) => app.log.error({ err: error }, 'local billing cycle failed'));
  const timer = setInterval(run, 3600_000);
  timer.unref();
  app.addHook('onReady', async () => {
    await run();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

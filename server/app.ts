/**
 * The API as a Fastify instance: JSON under /api, the payment webhook, the local checkout, and the built
 * SPA on the same origin. `buildApp` takes every dependency, so tests drive it with `inject` and their
 * own database, verifier and payment provider.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { fastifyTrustProxy, type Config } from './config.ts';
import type { Database } from './domain/store.ts';
import { ApiFailure } from './domain/errors.ts';
import type { IdentityVerifier } from './identity/verifier.ts';
import { authRoutes } from './http/auth-routes.ts';
import type { AppDeps } from './http/context.ts';
import { contentSecurityPolicy } from './http/csp.ts';
import { devRoutes } from './http/dev-routes.ts';
import { createWebhookReceiver, paymentRoutes } from './http/payment-routes.ts';
import { RateLimited, registerRateLimits } from './http/rate-limits.ts';
import { spaRoutes } from './http/spa.ts';
import { subscriptionRoutes } from './http/subscription-routes.ts';
import { LocalPaymentProvider } from './payments/local-provider.ts';
import type { PaymentProvider } from './payments/provider.ts';
import { signPayload } from './payments/signature.ts';
import { StripePaymentProvider } from './payments/stripe-provider.ts';
import { logSerializers } from './http/log-redaction.ts';
import { clientErrorHandler, frameworkErrorHandler } from './http/framework-errors.ts';

/**
 * Headers that carry credentials. Bodies (where the tokens travel) are never logged, URLs are logged
 * without their query string or local checkout id, and errors without SQL parameters
 * (server/http/log-redaction.ts), so no token, hash, checkout id or e-mail reaches the logs
 * (tests/server/log-redaction.test.ts checks a whole journey).
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
  /** Overrides the provider chosen from the configuration (tests). */
  payments?: PaymentProvider;
  logger?: boolean;
}

export async function buildApp({ config, database, verifier, payments, logger = true }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger
      ? {
          level: config.logLevel,
          redact: { paths: REDACTED, censor: '[redacted]' },
          serializers: logSerializers,
        }
      : false,
    // Every answer is {success:false,error} JSON, also for a URL Fastify cannot decode or a broken request.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    bodyLimit: 32 * 1024,
    // Rate limits key on the client address: trust X-Forwarded-For only when told a proxy sets it.
    trustProxy: fastifyTrustProxy(config.trustProxy),
  });

  const localCheckout = config.stripe
    ? null
    : new LocalPaymentProvider(database.db, config.publicUrl, async (event) => {
        const raw = JSON.stringify(event);
        await receiveLocal(raw, signPayload(raw, config.localWebhookSecret));
      });
  const receiveLocal = createWebhookReceiver({ database }, config.localWebhookSecret, 'local');
  const provider: PaymentProvider =
    payments ??
    (config.stripe
      ? new StripePaymentProvider({ ...config.stripe, publicUrl: config.publicUrl })
      : (localCheckout as LocalPaymentProvider));
  if (localCheckout) startBillingClock(app, localCheckout);

  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // Firebase's sign-in popup talks back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
  });
  const limits = await registerRateLimits(app, config, database.db);
  const deps: AppDeps = {
    config,
    database,
    verifier: limits.countVerifiedIdentities(verifier),
    payments: provider,
    localCheckout,
    limits,
  };

  app.setErrorHandler((error: FastifyError | ApiFailure, request, reply) => {
    if (error instanceof ApiFailure) {
      // A provider's fault behind a 502: the customer gets the message, the log gets the cause.
      if (error.cause !== undefined) request.log.error({ err: error.cause }, error.message);
      if (error instanceof RateLimited) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.statusCode).send({ success: false, error: error.message });
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own refusals: malformed JSON, wrong content type, body too large.
      const message =
        status === 413
          ? 'Request body is too large.'
          : status === 415
            ? 'Unsupported content type: send JSON.'
            : (error as FastifyError).code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'Invalid request: a JSON object body is required.'
              : 'Invalid request: the body is not valid JSON.';
      return reply.code(status).send({ success: false, error: message });
    }
    request.log.error({ err: error }, 'unexpected failure');
    return reply.code(500).send({ success: false, error: 'Something went wrong on our side. Please try again.' });
  });

  await app.register(
    async (api) => {
      // Liveness: the process answers (no dependency touched). Readiness with the database: /health.
      api.get('/live', async () => ({ ok: true }));
      api.get('/health', async (_request, reply) => {
        const databaseUp = await database.ping().catch(() => false);
        return reply.code(databaseUp ? 200 : 503).send({ ok: databaseUp, database: databaseUp });
      });
      await api.register((scope) => authRoutes(scope, deps), { prefix: '/auth' });
      await api.register((scope) => subscriptionRoutes(scope, deps), { prefix: '/subscription' });
      await api.register((scope) => paymentRoutes(scope, deps));
      await api.register((scope) => devRoutes(scope, deps), { prefix: '/dev' });
    },
    { prefix: '/api' },
  );

  const servesSpa = await spaRoutes(app, config);
  if (!servesSpa) {
    app.log.warn(`no built website at ${config.staticDir}: serving the API only (run npm run build)`);
    app.setNotFoundHandler((request, reply) =>
      reply.code(404).send({ success: false, error: `No such call: ${request.method} ${request.url.split('?')[0]}` }),
    );
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

/**
 * The API's work outside requests, started by buildApp before any route can owe a job: the job queue, the
 * mail worker, the renewal-notice sweep, the billing queues with the payment provider they call, the daily
 * retention purge, and the local checkout with its billing clock when there is no Stripe key. Each part is stopped when the app closes.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { PaymentProvider } from './domain/billing/payment-provider.ts';
import type { Database } from './domain/store.ts';
import { createWebhookReceiver } from './http/payment-routes.ts';
import { startBillingJobs } from './jobs/billing-jobs.ts';
import { startRetentionPurge } from './jobs/retention-purge-job.ts';
import { startJobQueue, type JobQueue, type JobQueueOptions, type RetryPolicy } from './jobs/queue.ts';
import { newMailCounters, startMailWorker, type MailCounters } from './mail/mail-worker.ts';
import { startRenewalSweep } from './mail/renewal-sweep.ts';
import type { ProductMetrics } from './observability/metrics.ts';
import { bindPaymentEvents, type PaymentEventHandler } from './payments/events.ts';
import { billingClockNow } from './payments/local-billing-clock.ts';
import { LocalPaymentProvider } from './payments/local-provider.ts';
import { signPayload } from './payments/signature.ts';

export interface WorkerOptions {
  config: Config;
  database: Database;
  metrics: ProductMetrics;
  /** Overrides the provider chosen from the configuration (tests). */
  payments?: PaymentProvider;
  /** The job queue; by default one on `database`, stopped when the app closes. */
  jobs?: JobQueue;
  /** The mail worker's counters (metrics, tests) and retries (tests shorten them). */
  mail?: { counters?: MailCounters; retry?: Partial<RetryPolicy> };
}

export interface Workers {
  jobs: JobQueue;
  payments: PaymentProvider;
  /** Present when the local checkout is the provider (no Stripe key). */
  localCheckout: LocalPaymentProvider | null;
  /** Applies a verified payment event (the webhook and the local checkout's deliveries). */
  applyPaymentEvent: PaymentEventHandler;
  /** The billing rules' time: the local checkout's billing clock, or real time with Stripe (AppDeps.billingNow). */
  billingNow: () => Promise<Date>;
  /** The same time from an offset of the local billing clock already read (AppDeps.billingNowWith). */
  billingNowWith: (localClockOffsetSeconds: number) => Date;
}

export async function startWorkers(app: FastifyInstance, { config, database, metrics, payments, jobs: givenJobs, mail = {} }: WorkerOptions): Promise<Workers> {
  const jobs = givenJobs ?? (await startJobQueue(database, { events: jobEvents(app, metrics) }));
  if (!givenJobs) app.addHook('onClose', () => jobs.stop());

  // Customer e-mail (issue 21): the queue is declared before any route can owe a message.
  const closeMailer = await startMailWorker(jobs, {
    db: database.db,
    config,
    log: app.log,
    counters: mail.counters ?? newMailCounters(),
    ...(mail.retry ? { retry: mail.retry } : {}),
    observe: (outcome, kind) => (outcome === 'sent' ? metrics.mailSent : metrics.mailFailed).inc({ template: kind }),
  });
  app.addHook('onClose', async () => closeMailer());

  // Every billing rule (the notices falling due among them) runs by the billing clock's time: the local
  // checkout's (it moves), or real time with Stripe.
  const billingNow = config.stripe ? async () => new Date() : () => billingClockNow(database.db);
  const billingNowWith = config.stripe ? () => new Date() : (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000);
  const renewalSweep = await startRenewalSweep(jobs, database.db, billingNow);

  // Routes and the webhook receiver are handed domain calls bound to the database, never the handle itself.
  const applyPaymentEvent = bindPaymentEvents(database.db);
  const receiveLocal = createWebhookReceiver({ applyPaymentEvent, metrics, jobs, billingNow }, config.localWebhookSecret, 'local');
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
  const provider: PaymentProvider =
    payments ??
    (config.stripe
      ? // Stripe's SDK is loaded only where it is configured (issue 32: start-up loads what it needs).
        new (await import('./payments/stripe-provider.ts')).StripePaymentProvider({ ...config.stripe, publicUrl: config.publicUrl })
      : localCheckout!);
  if (localCheckout) startBillingClock(app, localCheckout);
  await startBillingJobs(
    database.db,
    provider,
    jobs,
    { retryDelaySeconds: config.billingJobRetryDelaySeconds, retryLimit: config.billingJobRetryLimit },
    {
      failed: () => {
        metrics.refundsFailed.inc();
        app.log.error({ queue: 'provider-refund' }, 'a refund failed at the payment provider: support must contact the customer (docs/operations.md)');
      },
      gaveUp: () => {
        metrics.refundsGaveUp.inc();
        app.log.error({ queue: 'provider-refund' }, 'a refund failed for good: its job ran out of retries; support must contact the customer (docs/operations.md)');
      },
    },
  );
  // Expired data goes every day, and now (what expired while the API was down): the retention list's periods.
  await startRetentionPurge(jobs, database.db, config.deletedAccountCooldownSeconds, app.log);

  return { jobs, payments: provider, localCheckout, applyPaymentEvent, billingNow, billingNowWith };
}

/** The job queue's events, counted and logged. */
function jobEvents(app: FastifyInstance, metrics: ProductMetrics): JobQueueOptions['events'] {
  return {
    queued: (name) => metrics.jobsQueued.inc({ queue: name }),
    failed: (name, error, attempt, final) => {
      metrics.jobsFailed.inc({ queue: name, final: String(final) });
      // A job that will be retried is ordinary weather; one that failed for good needs a person.
      if (final) app.log.error({ err: error, queue: name, job: attempt.id }, `job ${name} failed for good after ${attempt.retryCount + 1} attempts`);
      else app.log.warn({ err: error, queue: name, job: attempt.id }, `job ${name} failed (attempt ${attempt.retryCount + 1}); it will be retried`);
    },
  };
}

/** The local checkout renews and ends subscriptions as their periods end: at start-up, then hourly. */
function startBillingClock(app: FastifyInstance, local: LocalPaymentProvider) {
  const run = () => local.runBillingCycle().catch((error: unknown) => app.log.error({ err: error }, 'local billing cycle failed'));
  const timer = setInterval(run, 3600_000);
  timer.unref();
  app.addHook('onReady', async () => {
    await run();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

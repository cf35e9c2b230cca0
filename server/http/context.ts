import type { Config } from '../config.ts';
import type { Database } from '../domain/store.ts';
import type { IdentityVerifier } from '../identity/verifier.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { ProductMetrics } from '../observability/metrics.ts';
import type { LocalPaymentProvider } from '../payments/local-provider.ts';
import type { PaymentProvider } from '../domain/payment-provider.ts';
import type { RateLimits } from './rate-limits.ts';

/** Everything a route needs, handed in once by buildApp (no module-level state). */
export interface AppDeps {
  config: Config;
  database: Database;
  verifier: IdentityVerifier;
  payments: PaymentProvider;
  /** Present when the local checkout is the provider. */
  localCheckout: LocalPaymentProvider | null;
  /** Per-account rate limits (per-address ones apply to every route by themselves). */
  limits: RateLimits;
  /** The job queue: work a request or an event owes the outside world, done once, retried until done. */
  jobs: JobQueue;
  /** The product counters GET /api/metrics shows (server/observability/metrics.ts). */
  metrics: ProductMetrics;
}

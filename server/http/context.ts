import type { Config } from '../config.ts';
import type { DomainCalls } from '../domain/bound.ts';
import type { IdentityAdmin } from '../domain/accounts/identity-admin.ts';
import type { IdentityVerifier } from '../identity/verifier.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { ProductMetrics } from '../observability/metrics.ts';
import type { PeerLogSignal } from '../domain/devices/peer-log-signal.ts';
import type { PaymentEventHandler } from '../payments/events.ts';
import type { LocalPaymentProvider } from '../payments/local-provider.ts';
import type { PaymentProvider } from '../domain/billing/payment-provider.ts';
import type { RateLimits } from './rate-limits.ts';

/** Everything a route needs, handed in once by buildApp (no module-level state). */
export interface AppDeps {
  config: Config;
  /** The domain calls, bound to the database: routes never hold the database handle (issue 24). */
  domain: DomainCalls;
  /** Applies a verified payment event (the webhook and the local checkout's deliveries). */
  applyPaymentEvent: PaymentEventHandler;
  verifier: IdentityVerifier;
  /** The identity provider's admin side: support disables and enables users (issue 30). */
  identityAdmin: IdentityAdmin;
  payments: PaymentProvider;
  /** Present when the local checkout is the provider. */
  localCheckout: LocalPaymentProvider | null;
  /**
   * The time of every billing rule (the money-back window, reminders, the grace period): the local
   * checkout's billing clock, or real time with Stripe, as a Stripe test clock would be (issue 34).
   */
  billingNow: () => Promise<Date>;
  /** The same time, given the local billing clock's offset already read (verify reads it with the session). */
  billingNowWith: (localClockOffsetSeconds: number) => Date;
  /** Per-account rate limits (per-address ones apply to every route by themselves). */
  limits: RateLimits;
  /** The job queue: work a request or an event owes the outside world, done once, retried until done. */
  jobs: JobQueue;
  /** The product counters GET /api/metrics shows (server/observability/metrics.ts). */
  metrics: ProductMetrics;
  /** Wakes the relays' long polls when the peer list changes; null without relay tokens (no relay API). */
  peerLog: PeerLogSignal | null;
  /** The time the servers' status is computed at (real time; tests set another to see a server fall silent). */
  statusNow: () => Date;
}

/**
 * The billing queues (issue 20, design §7b), declared at start-up and worked by every instance: pg-boss
 * hands each job to one of them. The handlers are the domain's. The mail queue they owe e-mails to is
 * declared by the mail worker (server/mail/mail-worker.ts), which server/workers.ts starts first.
 */
import { RENEWAL_OFF_QUEUE, turnOffRenewalAtProvider, type RenewalOffJob } from '../domain/billing/disputes.ts';
import { carryOutRefund, giveUpRefund, REFUND_QUEUE, type OldShapeRefundJob, type RefundJob } from '../domain/billing/refunds.ts';
import type { Db } from '../domain/store.ts';
import type { PaymentProvider } from '../domain/billing/payment-provider.ts';
import type { JobQueue } from './queue.ts';

export interface RefundAlerts {
  /** A refund failed for good at the provider (refused, or failed after being made). */
  failed: () => void;
  /** A refund's job ran out of retries: the refund is failed for good without the provider's answer. */
  gaveUp: () => void;
}

export async function startBillingJobs(
  db: Db,
  payments: PaymentProvider,
  jobs: JobQueue,
  retry: { retryDelaySeconds: number; retryLimit?: number },
  alerts: RefundAlerts = { failed: () => {}, gaveUp: () => {} },
): Promise<void> {
  await jobs.declare(REFUND_QUEUE, retry);
  // Jobs sent before refunds had ids of their own name the subscription (OldShapeRefundJob): still carried out.
  await jobs.work<RefundJob | OldShapeRefundJob>(REFUND_QUEUE, async (data, attempt) => {
    let result: Awaited<ReturnType<typeof carryOutRefund>>;
    try {
      result = await carryOutRefund(db, payments, jobs, data);
    } catch (error) {
      // Never silent (issue 46, item 4): the last attempt's failure fails the refund, tells the customer
      // and raises its own alert; the job still ends failed, for the queue's own count and log.
      if (attempt.lastAttempt && (await giveUpRefund(db, jobs, data))) alerts.gaveUp();
      throw error;
    }
    if (result.outcome === 'failed') alerts.failed();
    // Settled with its account gone, the refund is an accounting record with hashed ids: its job does not
    // stay on for pg-boss's 7 days (issue 31).
    if (result.forgetJob) await jobs.forget(attempt.id);
  });
  // A lost dispute's "auto-renewal off" at the provider (issue 46, item 2).
  await jobs.declare(RENEWAL_OFF_QUEUE, retry);
  await jobs.work<RenewalOffJob>(RENEWAL_OFF_QUEUE, (data) => turnOffRenewalAtProvider(payments, data));
}

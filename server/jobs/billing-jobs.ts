/**
 * The billing queues (issue 20, design §7b), declared at start-up and worked by every instance: pg-boss
 * hands each job to one of them. The handlers are the domain's. The mail queue they owe e-mails to is
 * declared by the mail worker (server/mail/mail-worker.ts), which server/workers.ts starts first.
 */
import { carryOutRefund, REFUND_QUEUE, type OldShapeRefundJob, type RefundJob } from '../domain/refunds.ts';
import type { Db } from '../domain/store.ts';
import type { PaymentProvider } from '../domain/payment-provider.ts';
import type { JobQueue } from './queue.ts';

export async function startBillingJobs(
  db: Db,
  payments: PaymentProvider,
  jobs: JobQueue,
  retryDelaySeconds: number,
  /** Called for a refund that failed for good (the alert's counter). */
  onRefundFailed: () => void = () => {},
): Promise<void> {
  await jobs.declare(REFUND_QUEUE, { retryDelaySeconds });
  // Jobs sent before refunds had ids of their own name the subscription (OldShapeRefundJob): still carried out.
  await jobs.work<RefundJob | OldShapeRefundJob>(REFUND_QUEUE, async (data, attempt) => {
    const { outcome, forgetJob } = await carryOutRefund(db, payments, jobs, data);
    if (outcome === 'failed') onRefundFailed();
    // Settled with its account gone, the refund is an accounting record with hashed ids: its job does not
    // stay on for pg-boss's 7 days (issue 31).
    if (forgetJob) await jobs.forget(attempt.id);
  });
}

/**
 * The billing queues (issue 20, design §7b), declared at start-up and worked by every instance: pg-boss
 * hands each job to one of them. The handlers are the domain's. The mail queue they owe e-mails to is
 * declared by the mail worker (server/mail/mail-worker.ts), which server/workers.ts starts first.
 */
import { carryOutRefund, REFUND_QUEUE, type RefundJob } from '../domain/refunds.ts';
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
  await jobs.work<RefundJob>(REFUND_QUEUE, async (data) => {
    if ((await carryOutRefund(db, payments, jobs, data)) === 'failed') onRefundFailed();
  });
}

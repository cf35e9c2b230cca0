/**
 * The billing queues (issue 20, design §7b), declared at start-up with the mail queue they send to, and
 * worked by every instance: pg-boss hands each job to one of them. The handlers are the domain's.
 */
import { MAIL_QUEUE } from '../domain/customer-messages.ts';
import { carryOutRefund, REFUND_QUEUE, type RefundJob } from '../domain/refunds.ts';
import type { Db } from '../domain/store.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { JobQueue } from './queue.ts';

export async function startBillingJobs(db: Db, payments: PaymentProvider, jobs: JobQueue, retryDelaySeconds: number): Promise<void> {
  // Declared here so that owing an e-mail never throws, whether or not this instance runs the mail worker.
  await jobs.declare(MAIL_QUEUE);
  await jobs.declare(REFUND_QUEUE, { retryDelaySeconds });
  await jobs.work<RefundJob>(REFUND_QUEUE, (data) => carryOutRefund(db, payments, jobs, data));
}

/**
 * The e-mails the product owes a customer (issue 21, design §7b), as the domain speaks of them. A message
 * is enqueued in the same transaction as the change that causes it, keyed by what it is about
 * (kind + subscription + period, or kind + event id), so it is sent once whatever the deliveries, instances
 * or restarts; the mail worker (server/mail/) renders and sends it, retrying until the mail server takes it.
 * Amounts are in the currency's smallest unit; dates are ISO 8601 timestamps.
 */
import type { Db } from '../db/database.ts';
import type { JobSender } from './jobs.ts';

export const MAIL_QUEUE = 'mail';

/** Who a message goes to: the account (its current address is read when sending), or an address kept for it. */
type Recipient = { userId: string } | { email: string; name: string };

export type CustomerMessage = Recipient &
  (
    | { kind: 'receipt'; amount: number; currency: string; paidAt: string; description: string; nextRenewal: string | null }
    | {
        kind: 'refund';
        amount: number;
        currency: string;
        refundedAt: string;
        /** Why it was refunded (absent on messages owed before issue 34): a second subscription leaves access as it was. */
        reason?: 'second_subscription' | 'deleted_account' | 'money_back' | 'staff';
      }
    /** A refund the provider refused or that failed later: support will contact the customer. */
    | { kind: 'refund_failed'; amount: number; currency: string; failedAt: string }
    | { kind: 'payment_failed'; amount: number; currency: string; failedAt: string }
    | { kind: 'renewal_off'; endDate: string }
    | { kind: 'renewal_on'; renewalDate: string }
    | {
        kind: 'renewal_reminder';
        /** Which reminder it is (its key): one of RENEWAL_REMINDER_DAYS (contract/plans.ts) before. */
        daysBefore: number;
        /** Whole days from when it was owed to the renewal (the heading says it); absent on older messages. */
        daysLeft?: number;
        renewalDate: string;
        amount: number;
        currency: string;
        card: string | null;
      }
    | { kind: 'plan_ending'; endDate: string }
    | { kind: 'plan_ended'; endDate: string }
    | { kind: 'new_device'; deviceName: string; signedInAt: string }
    | { kind: 'account_deleted'; deletedAt: string }
  );

/**
 * Owes `message`, inside `tx`. `about` names its subject within its kind (an event id, or subscription id
 * plus period end): the same kind and subject are mailed once. Answers false for a duplicate.
 */
export function oweCustomerMessage(tx: Db, jobs: JobSender, message: CustomerMessage, about: string): Promise<boolean> {
  return jobs.send(tx, MAIL_QUEUE, message, `${message.kind}:${about}`);
}

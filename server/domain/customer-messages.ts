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

/**
 * Who a message goes to, by id only (issue 31: no job payload holds an address or a name): the account
 * (its current address is read when sending), or, once the account is gone, the kept address a
 * `notice_addresses` row holds until the mail server takes the message (notice-addresses.ts).
 */
type Recipient = { userId: string } | { noticeId: string };

/** What each e-mail says, as the mail (server/mail/messages.ts) words it. */
export type MessageToSend =
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
  /** A past-due plan ended with its renewal never paid (the provider's retries over; issue 45, T15). */
  | { kind: 'plan_ended_unpaid'; failedOn: string; endedAt: string }
  /** A desktop app signed in, or (`wireguard`) a WireGuard configuration was made on the website (issue 46, item 9). */
  | { kind: 'new_device'; deviceName: string; signedInAt: string; via?: 'wireguard' }
  | { kind: 'account_deleted'; deletedAt: string }
  /** Veil support disabled the account (issue 45, T13): what stopped, whether renewal was turned off, how to reach support. */
  | { kind: 'account_disabled'; disabledAt: string; renewalTurnedOff: boolean };

/** The new-device notice names the session (or the WireGuard key); the device's name is read when sending. */
type Owed<Content> = Content extends { kind: 'new_device' } ? Omit<Content, 'deviceName' | 'via'> & ({ sessionId: string } | { keyId: string }) : Content;

/** A message as its job carries it: ids, amounts and dates, never an address, a name or a device name. */
export type CustomerMessage = Recipient & Owed<MessageToSend>;

/**
 * Shapes owed before this rule (issue 31), possibly still queued when it deploys: the address and name
 * of a deleted account, or the device's name, in the job. The mail worker still sends them, then deletes
 * the job at once (server/mail/mail-worker.ts), so none outlives its sending.
 */
export type LegacyMessage = ({ email: string; name: string } | { userId: string }) & MessageToSend;

/** A job that was running when its account was deleted: its ids were taken out (server/jobs/queue.ts). */
interface AccountGoneMessage {
  kind: MessageToSend['kind'];
  accountGone: true;
}

/** What the mail queue may hold. */
export type QueuedMessage = CustomerMessage | LegacyMessage | AccountGoneMessage;

/** Whether the job of `message` must be deleted once done: it is of an account already gone, or an old shape. */
export function isForgottenOnceSent(message: QueuedMessage): boolean {
  return 'noticeId' in message || 'email' in message || 'deviceName' in message || 'accountGone' in message;
}

/**
 * Owes `message`, inside `tx`. `about` names its subject within its kind (an event id, or subscription id
 * plus period end): the same kind and subject are mailed once. Answers false for a duplicate.
 */
export function oweCustomerMessage(tx: Db, jobs: JobSender, message: CustomerMessage, about: string): Promise<boolean> {
  return jobs.send(tx, MAIL_QUEUE, message, `${message.kind}:${about}`);
}

/** The e-mails the job queue sent the account (it keeps finished jobs for 7 days): kind and day. */
export async function emailsSent(db: Db, jobs: JobSender, userId: string): Promise<Array<{ kind: string; date: string }>> {
  const done = await jobs.completedJobsOf(db, MAIL_QUEUE, userId, 50);
  return done.map((job) => ({ kind: String(job.data['kind']), date: job.completedAt.toISOString().slice(0, 10) }));
}

/**
 * The mail worker (issue 21 §4): takes each owed message off the queue, renders it and sends it through
 * SMTP. A failed send throws, so the queue retries it with backoff; the last failed attempt is logged as an
 * error and counted, never dropped silently. With MAIL=off owed messages are completed unsent (logged).
 * Logs name the message's kind and job, never the address (docs/api.md "Security model").
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { MAIL_QUEUE, type CustomerMessage, type QueuedMessage } from '../domain/customer-messages.ts';
import { deliverCustomerMessage, dropKeptAddress, isForgottenWhenEnded } from '../domain/message-delivery.ts';
import type { Db } from '../domain/store.ts';
import type { JobQueue, RetryPolicy } from '../jobs/queue.ts';
import type { Mailer } from './smtp-mailer.ts';

/** What the worker did since start-up (exported to metrics by whoever reads them). */
export interface MailCounters {
  sent: number;
  /** Messages whose account was deleted before they were sent. */
  skipped: number;
  /** Messages still failing after their last retry. */
  failedForGood: number;
}

export const newMailCounters = (): MailCounters => ({ sent: 0, skipped: 0, failedForGood: 0 });

export interface MailWorkerOptions {
  db: Db;
  config: Pick<Config, 'mail' | 'publicUrl'>;
  log: FastifyBaseLogger;
  counters: MailCounters;
  /** The queue's retries (default: the queue's day of backoff); tests shorten them. */
  retry?: Partial<RetryPolicy>;
  /** Each message sent, and each attempt the mail server refused, by kind (the metrics). */
  observe?: (outcome: 'sent' | 'failed', kind: CustomerMessage['kind']) => void;
}

/** Declares the mail queue (idempotent) and works it on this instance; answers a stop for the transport. */
export async function startMailWorker(jobs: JobQueue, { db, config, log, counters, retry, observe }: MailWorkerOptions): Promise<() => void> {
  await jobs.declare(MAIL_QUEUE, retry);
  // nodemailer is loaded only where mail is configured.
  const mailer: Mailer | null = config.mail ? (await import('./smtp-mailer.ts')).createSmtpMailer(config.mail.smtpUrl, config.mail.from) : null;
  await jobs.work<QueuedMessage>(MAIL_QUEUE, async (message, attempt) => {
    // A message of an account already gone names a kept address (deleted with its sending, by delivery);
    // its job is deleted too once done or failed for good, data and output with it (issue 31). So is an
    // old-shape job that still carries an address or a device's name (queued before that rule): sent, then
    // gone; and one whose account was deleted while it ran (issue 46, item 12).
    const forgetIfAccountGone = async () => {
      if (await isForgottenWhenEnded(db, message)) await jobs.forget(attempt.id);
    };
    if (!mailer) {
      log.info({ job: attempt.id, kind: message.kind }, 'MAIL=off: an owed e-mail was not sent');
      await dropKeptAddress(db, message);
      await forgetIfAccountGone();
      return;
    }
    try {
      const outcome = await deliverCustomerMessage(db, message, async (to, owed) => {
        // The templates (React and react-email) load with the first e-mail, not at start-up (issue 32).
        const { renderMail } = await import('./render.tsx');
        await mailer.send(to, await renderMail(owed, to, config.publicUrl));
      });
      if (outcome === 'sent') {
        counters.sent += 1;
        observe?.('sent', message.kind);
      } else {
        counters.skipped += 1;
        log.info({ job: attempt.id, kind: message.kind }, 'e-mail not sent: its account was deleted');
      }
      await forgetIfAccountGone();
    } catch (error) {
      observe?.('failed', message.kind);
      if (attempt.lastAttempt) {
        counters.failedForGood += 1;
        log.error({ err: error, job: attempt.id, kind: message.kind }, `e-mail ${message.kind} failed for good after ${attempt.retryCount + 1} attempts`);
        await dropKeptAddress(db, message);
        await forgetIfAccountGone();
      }
      throw error;
    }
  });
  return () => mailer?.close();
}

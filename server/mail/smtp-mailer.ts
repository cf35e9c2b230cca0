/**
 * The SMTP adapter (issue 21 §1): nodemailer over SMTP_URL (smtp:// or smtps://user:pass@host:port), from
 * MAIL_FROM. One pooled transport per process; a refusal or an unreachable server throws, and the job is
 * retried with backoff.
 */
import nodemailer from 'nodemailer';
import type { MailRecipient } from '../domain/message-delivery.ts';
import type { RenderedMail } from './render.tsx';

export interface Mailer {
  send(to: MailRecipient, mail: RenderedMail): Promise<void>;
  close(): void;
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // A server that hangs must not hold a worker for minutes: the retry comes soon enough.
  const url = new URL(smtpUrl);
  for (const [name, value] of Object.entries({ connectionTimeout: '15000', greetingTimeout: '15000', socketTimeout: '30000' })) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  }
  const transport = nodemailer.createTransport(url.toString(), { from });
  return {
    async send(to, mail) {
      await transport.sendMail({ to: { address: to.email, name: to.name }, subject: mail.subject, html: mail.html, text: mail.text });
    },
    close: () => transport.close(),
  };
}

/**
 * Delivering one owed customer message (the mail worker's use case, design §7b): the recipient is read
 * when sending (the account's current address), or taken from the message when the account is gone
 * (deletion). The SMTP adapter is passed in; a throw leaves the job to be retried.
 */
import type { Db } from '../db/database.ts';
import { findUserById } from './accounts.ts';
import type { CustomerMessage } from './customer-messages.ts';

export interface MailRecipient {
  email: string;
  name: string;
}

export type SendMail = (to: MailRecipient, message: CustomerMessage) => Promise<void>;

/** Sends `message`; answers 'no_recipient' (nothing sent) when its account was deleted meanwhile. */
export async function deliverCustomerMessage(db: Db, message: CustomerMessage, send: SendMail): Promise<'sent' | 'no_recipient'> {
  let to: MailRecipient;
  if ('userId' in message) {
    const user = await findUserById(db, message.userId);
    if (!user) return 'no_recipient';
    to = { email: user.email, name: user.name };
  } else {
    to = { email: message.email, name: message.name };
  }
  await send(to, message);
  return 'sent';
}

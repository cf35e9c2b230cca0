/**
 * Delivering one owed customer message (the mail worker's use case, design §7b). The job names ids only
 * (issue 31); what the mail needs is read when sending: the account's current address, or the address
 * kept for a message owed after the account is gone (notice-addresses.ts), and the name a new device gave
 * itself. The SMTP adapter is passed in; a throw leaves the job to be retried.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { sessions, wireguardKeys } from '../db/schema.ts';
import { findUserById } from './accounts/accounts.ts';
import { isForgottenOnceSent, type MessageToSend, type QueuedMessage } from './customer-messages.ts';
import { forgetNoticeAddress, readNoticeAddress } from './privacy/notice-addresses.ts';
import { desktopName } from './devices/device-names.ts';

export interface MailRecipient {
  email: string;
  name: string;
}

export type SendMail = (to: MailRecipient, message: MessageToSend) => Promise<void>;

/**
 * Sends `message`; answers 'no_recipient' (nothing sent) when its account was deleted meanwhile, or its
 * kept address is gone already (sent before, by an attempt whose completion was lost). A kept address is
 * deleted once the mail server took the message.
 */
export async function deliverCustomerMessage(db: Db, message: QueuedMessage, send: SendMail): Promise<'sent' | 'no_recipient'> {
  const to = await recipientOf(db, message);
  if (!to) return 'no_recipient';
  const content = await contentOf(db, message);
  if (!content) return 'no_recipient';
  await send(to, content);
  await dropKeptAddress(db, message);
  return 'sent';
}

/**
 * Whether the job of `message` is to be deleted once it ends: it is of an account already gone (a kept
 * address, an old shape, or its ids taken out by deletion), or its account was deleted while it ran.
 */
export async function isForgottenWhenEnded(db: Db, message: QueuedMessage): Promise<boolean> {
  if (isForgottenOnceSent(message)) return true;
  return 'userId' in message && !(await findUserById(db, message.userId));
}

/** The address a message owed after its account was gone kept is deleted (sent, failed for good, or MAIL=off). */
export async function dropKeptAddress(db: Db, message: QueuedMessage): Promise<void> {
  if ('noticeId' in message) await forgetNoticeAddress(db, message.noticeId);
}

async function recipientOf(db: Db, message: QueuedMessage): Promise<MailRecipient | null> {
  if ('userId' in message) {
    const user = await findUserById(db, message.userId);
    return user ? { email: user.email, name: user.name } : null;
  }
  if ('noticeId' in message) return readNoticeAddress(db, message.noticeId);
  // Its account was deleted while it was being sent (a retry of it): nobody to send it to.
  if ('accountGone' in message) return null;
  // An old-shape message (queued before issue 31) carries its address.
  return { email: message.email, name: message.name };
}

/** The message as the mail words it: a new device's name read from its session (an old shape carries it). */
async function contentOf(db: Db, message: QueuedMessage): Promise<MessageToSend | null> {
  if (message.kind !== 'new_device' || 'deviceName' in message) return message as MessageToSend;
  if (!('userId' in message)) return null;
  if ('keyId' in message) {
    const [key] = await db.select({ name: wireguardKeys.name }).from(wireguardKeys).where(and(eq(wireguardKeys.id, message.keyId), eq(wireguardKeys.userId, message.userId)));
    // Removed before the notice went: nothing left to warn about.
    return key ? { kind: 'new_device', signedInAt: message.signedInAt, deviceName: key.name, via: 'wireguard' } : null;
  }
  const [session] = await db
    .select({ deviceName: sessions.deviceName })
    .from(sessions)
    .where(and(eq(sessions.id, message.sessionId), eq(sessions.userId, message.userId)));
  return { kind: 'new_device', signedInAt: message.signedInAt, deviceName: desktopName(session?.deviceName) };
}

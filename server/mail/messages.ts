/**
 * What each e-mail says (issue 21 §5), as plain content: the React Email layout (email-layout.tsx) draws it
 * as HTML and render.tsx writes the same content as the plain-text part, so the two never drift apart.
 * Links are absolute (PUBLIC_URL) and never carry a token.
 */
import { PAST_DUE_DAYS } from '../../contract/limits.ts';
import { PLAN } from '../../contract/plans.ts';
import { brandForServer as brand } from '../brand.ts';
import type { MessageToSend } from '../domain/customer-messages.ts';
import { REFUND_ARRIVES_WITHIN } from '../../contract/refund-timing.ts';
import { formatAmount, formatDate, formatDateTime } from './format.ts';

export interface MessageContent {
  subject: string;
  /** The line a mail client shows beside the subject. */
  preview: string;
  heading: string;
  paragraphs: string[];
  /** Label and value pairs (amount, date, device...). */
  details?: Array<[string, string]>;
  action?: { label: string; url: string };
  /** Said after the action (e.g. how to turn auto-renewal off). */
  after?: string[];
  /** Why the customer gets this e-mail (the footer's first line). */
  why: string;
}

const BILLING_WHY = `You are receiving this e-mail because it concerns the billing of your ${brand.productName} subscription. Billing notices are sent to every subscriber and cannot be turned off.`;
const SECURITY_WHY = `You are receiving this e-mail because it concerns the security of your ${brand.productName} account. Security notices cannot be turned off.`;

/**
 * What a deleted account leaves behind, word for word as the privacy policy says it (src/content/privacy.ts;
 * tests/unit/mail-content.test.ts keeps the two the same).
 */
export const KEPT_AFTER_DELETION = [
  'After deletion we keep, for a cool-down period of 7 days, a one-way hash of your account identifier and a one-way hash of your e-mail address, with the time of deletion, and nothing else. They exist only to stop a deleted account from being instantly re-created to abuse the service, and they are deleted when the 7 days are over. For 30 days we also keep a one-way hash of the internal number of the deleted account, so that a payment that still arrives for it (for example from a checkout page left open in another tab) is refunded instead of charged.',
  'Our payment provider may keep payment records for as long as tax and accounting law requires.',
];

/**
 * A billing notice: every one gives the same reason for being sent (billing notices go to every
 * subscriber and cannot be turned off), so it is said here once rather than in each message.
 */
function billingNotice(content: Omit<MessageContent, 'why'>): MessageContent {
  return { ...content, why: BILLING_WHY };
}

/** The day by which a renewal that failed on `failedAt` must be paid (PAST_DUE_DAYS later; the card says the same). */
function payBy(failedAt: string): string {
  return new Date(Date.parse(failedAt) + PAST_DUE_DAYS * 86_400_000).toISOString();
}

/** "1 day", "25 days". */
function daysText(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

/** A name someone else chose, in quotation marks and on one line (a device can call itself anything). */
function quoted(name: string): string {
  return `“${name.replace(/\s+/g, ' ').trim()}”`;
}

/** "Veil VPN is operated by Veil Labs, Inc." (one full stop, whatever the operator's name ends with). */
export function operatedBy(): string {
  return `${brand.productName} is operated by ${brand.operator.replace(/\.$/, '')}.`;
}

/** The content of `message` for its recipient; `publicUrl` is where the product is (no trailing slash). */
export function composeMessage(message: MessageToSend, publicUrl: string): MessageContent {
  const account = `${publicUrl}/account`;
  const plan = brand.planName;
  switch (message.kind) {
    case 'receipt':
      return billingNotice({
        subject: `Your ${brand.productName} receipt: ${formatAmount(message.amount, message.currency)}`,
        preview: `We received your payment of ${formatAmount(message.amount, message.currency)}. Thank you.`,
        heading: 'Thank you for your payment',
        paragraphs: [`We received your payment for ${plan}. This e-mail is your receipt.`],
        details: [
          ['Amount paid', formatAmount(message.amount, message.currency)],
          ['Date', formatDate(message.paidAt)],
          ['Plan', message.description],
          ...(message.nextRenewal ? ([['Next renewal', formatDate(message.nextRenewal)]] as Array<[string, string]>) : []),
        ],
        action: { label: 'View billing history', url: account },
      });
    case 'refund':
      return billingNotice({
        subject: `Your ${brand.productName} refund of ${formatAmount(message.amount, message.currency)}`,
        preview: `We refunded ${formatAmount(message.amount, message.currency)} to your card.`,
        heading: 'Your refund is on its way',
        paragraphs: [
          `We refunded ${formatAmount(message.amount, message.currency)} to the card you paid with on ${formatDate(message.refundedAt)}.`,
          message.reason === 'second_subscription'
            ? 'It paid for a second subscription to the same account; your first subscription and your VPN access are unchanged.'
            : `${plan} ended with the refund, and your VPN access ended with it. You can subscribe again at any time.`,
          `The money returns to your card within ${REFUND_ARRIVES_WITHIN}, depending on your bank.`,
        ],
        details: [
          ['Amount refunded', formatAmount(message.amount, message.currency)],
          ['Refunded on', formatDate(message.refundedAt)],
        ],
        action: { label: 'View billing history', url: account },
      });
    case 'refund_failed':
      return billingNotice({
        subject: `Your ${brand.productName} refund could not be made`,
        preview: 'Our support team will contact you to return your money.',
        heading: 'Your refund could not be made',
        paragraphs: [
          `We tried to refund ${formatAmount(message.amount, message.currency)} to the card you paid with, and on ${formatDate(message.failedAt)} the payment provider told us the refund could not be made.`,
          `Our support team will contact you at this address to return your money another way. You do not need to do anything; if you have questions, write to ${brand.supportEmail}.`,
        ],
        details: [['Amount owed to you', formatAmount(message.amount, message.currency)]],
        action: { label: 'View billing history', url: account },
      });
    case 'payment_failed':
      return billingNotice({
        subject: `Your ${brand.productName} renewal payment failed`,
        preview: 'Please update your payment method to keep your subscription.',
        heading: 'We could not renew your subscription',
        paragraphs: [
          `Your payment of ${formatAmount(message.amount, message.currency)} for ${plan} on ${formatDate(message.failedAt)} did not go through.`,
          // Issue 45 (N7): the pay-by date, and what happens to the VPN (design §8: it keeps working while the card is retried).
          `What happens next: your subscription is past due. Your VPN keeps working while we try the payment again. Update your payment method by ${formatDate(payBy(message.failedAt))} to keep your plan: if the payment has not gone through by then, your plan ends and your VPN stops connecting. Updating your payment method settles it at once.`,
        ],
        details: [
          ['Amount due', formatAmount(message.amount, message.currency)],
          ['Pay by', formatDate(payBy(message.failedAt))],
        ],
        action: { label: 'Update payment method', url: account },
      });
    case 'renewal_off':
      return billingNotice({
        subject: `Auto-renewal of ${plan} is off`,
        preview: `Your plan stays active until ${formatDate(message.endDate)}, then ends.`,
        heading: 'Auto-renewal is off',
        paragraphs: [
          `You turned off auto-renewal. ${plan} stays active until ${formatDate(message.endDate)}; after that it ends and you will not be charged again.`,
          'Changed your mind? You can turn auto-renewal back on from your account page until then.',
        ],
        action: { label: 'Open my account', url: account },
      });
    case 'renewal_on':
      return billingNotice({
        subject: `Auto-renewal of ${plan} is back on`,
        preview: `Your plan renews on ${formatDate(message.renewalDate)} for ${formatAmount(PLAN.amount, PLAN.currency)}.`,
        heading: 'Auto-renewal is on again',
        paragraphs: [
          // Issue 45 (T21): what the renewal will cost, not only when.
          `You turned auto-renewal back on. ${plan} renews automatically on ${formatDate(message.renewalDate)}, when we will charge ${formatAmount(PLAN.amount, PLAN.currency)}, and we will remind you before then.`,
        ],
        details: [
          ['Amount', formatAmount(PLAN.amount, PLAN.currency)],
          ['Renewal date', formatDate(message.renewalDate)],
        ],
        action: { label: 'Open my account', url: account },
      });
    case 'renewal_reminder': {
      const amount = formatAmount(message.amount, message.currency);
      const date = formatDate(message.renewalDate);
      return billingNotice({
        subject: `${plan} renews on ${date}`,
        preview: `${amount} will be charged on ${date}.`,
        heading: message.daysLeft === undefined ? `Your plan renews on ${date}` : `Your plan renews in ${daysText(message.daysLeft)}`,
        paragraphs: [`${plan} renews automatically on ${date}, when we will charge ${amount}${message.card ? ` to ${message.card}` : ' to your card on file'}.`],
        details: [
          ['Amount', amount],
          ['Renewal date', date],
          ...(message.card ? ([['Card', message.card]] as Array<[string, string]>) : []),
        ],
        action: { label: 'Manage auto-renewal', url: account },
        after: ['Nothing to do if you want to keep your plan. To stop the renewal, turn off auto-renewal on your account page before that date; your plan then stays active until it ends.'],
      });
    }
    case 'plan_ending':
      return billingNotice({
        subject: `${plan} ends on ${formatDate(message.endDate)}`,
        // Issue 45 (T14): the real date, whenever the notice goes out (turned off late, it is fewer days away).
        preview: `Auto-renewal is off, so your plan ends on ${formatDate(message.endDate)}.`,
        heading: `Your plan ends on ${formatDate(message.endDate)}`,
        paragraphs: [
          `Auto-renewal is off, so ${plan} ends on ${formatDate(message.endDate)}. After that the VPN stops connecting on your devices.`,
          'To keep it, turn auto-renewal back on from your account page before then.',
        ],
        action: { label: 'Keep my plan', url: account },
      });
    case 'plan_ended':
      return billingNotice({
        subject: `${plan} has ended`,
        preview: 'Your plan has ended. You can subscribe again at any time.',
        heading: 'Your plan has ended',
        paragraphs: [
          `${plan} ended on ${formatDate(message.endDate)}, as auto-renewal was off. You have not been charged again.`,
          'Your account is still here: you can subscribe again at any time.',
        ],
        action: { label: 'Subscribe again', url: `${publicUrl}/subscribe` },
      });
    case 'plan_ended_unpaid':
      // Issue 45 (T15): a plan that ends unpaid says so.
      return billingNotice({
        subject: `${plan} has ended: the renewal was not paid`,
        preview: 'Your renewal payment did not go through, so your plan has ended.',
        heading: 'Your plan has ended unpaid',
        paragraphs: [
          `The renewal payment for ${plan} due on ${formatDate(message.failedOn)} was not paid, so your plan ended on ${formatDate(message.endedAt)} and your VPN stopped connecting. You have not been charged.`,
          'Your account and your devices are still here: subscribe again and they connect again.',
        ],
        action: { label: 'Subscribe again', url: `${publicUrl}/subscribe` },
      });
    case 'new_device':
      if (message.via === 'wireguard') {
        return {
          subject: `New device on your ${brand.productName} account`,
          preview: `A WireGuard configuration named ${quoted(message.deviceName)} was made on ${formatDateTime(message.signedInAt)}.`,
          heading: 'A new device was added',
          paragraphs: ['A WireGuard configuration was made for your account on the website: whoever holds it can use your VPN.'],
          details: [
            ['Device name', quoted(message.deviceName)],
            ['Time', formatDateTime(message.signedInAt)],
          ],
          after: ['If this was you, there is nothing to do.'],
          action: { label: 'Not you? Revoke it', url: `${account}#devices-title` },
          why: SECURITY_WHY,
        };
      }
      return {
        subject: `New sign-in to your ${brand.productName} account`,
        // The name is whatever the device called itself: quoted and attributed, never said as if in our voice.
        preview: `A device calling itself ${quoted(message.deviceName)} signed in on ${formatDateTime(message.signedInAt)}.`,
        heading: 'A new device signed in',
        paragraphs: ['The desktop app signed in to your account on a new device.'],
        details: [
          ['Name the device gave itself', quoted(message.deviceName)],
          ['Time', formatDateTime(message.signedInAt)],
        ],
        after: ['If this was you, there is nothing to do.'],
        action: { label: 'Not you? Revoke it', url: `${account}#devices-title` },
        why: SECURITY_WHY,
      };
    case 'account_disabled':
      return {
        subject: `Your ${brand.productName} account was disabled`,
        preview: 'Veil support disabled your account: you cannot sign in, and your VPN no longer connects.',
        heading: 'Your account was disabled',
        paragraphs: [
          `Veil support disabled your ${brand.productName} account on ${formatDate(message.disabledAt)}. You cannot sign in, every device was signed out, and your desktop apps and WireGuard configurations no longer connect.`,
          message.renewalTurnedOff
            ? 'Auto-renewal was turned off with it: you will not be charged again.'
            : 'You will not be charged: auto-renewal was not on.',
          `If you think this is a mistake, reply to this e-mail or write to ${brand.supportEmail}. Nothing was deleted: if your account is enabled again, your devices and configurations come back with it.`,
        ],
        action: { label: 'Contact support', url: `${publicUrl}/support` },
        why: SECURITY_WHY,
      };
    case 'account_deleted':
      return {
        subject: `Your ${brand.productName} account was deleted`,
        preview: 'Your account and its data are gone.',
        heading: 'Your account was deleted',
        paragraphs: [
          `Your ${brand.productName} account was deleted on ${formatDate(message.deletedAt)}, as requested. A subscription, if you had one, ended with it: you will not be charged again.`,
          'What was deleted: your account details (e-mail address, name, sign-in identifier), your subscription record, and every signed-in device and sign-in record.',
          'What we keep, in the words of our privacy policy:',
          ...KEPT_AFTER_DELETION,
          'This is the last e-mail we send you.',
        ],
        action: { label: 'Read the privacy policy', url: `${publicUrl}/privacy` },
        why: `You are receiving this e-mail because your ${brand.productName} account was deleted. We kept your address only to send it.`,
      };
  }
}

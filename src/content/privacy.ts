import { RETAINED_DATA, type RetainedData } from '../../contract/retention';
import { brand } from '../config/brand';
import { ENCRYPTION_SENTENCE } from './encryption';
import type { LegalSection } from './legal-section';

/** How long logs and traces are kept is the operator's setting (src/config/brand.ts); the rest is the list's. */
function keptText(entry: RetainedData): string {
  if (entry.key === 'logs') return `${brand.logRetentionDays} days, then deleted`;
  if (entry.key === 'traces') return brand.tracingProcessor ? `${brand.traceRetentionDays} days, then deleted` : 'Not collected: tracing is off';
  return entry.kept;
}

const tracingProcessorSentence = brand.tracingProcessor
  ? ` When performance tracing is on, traces of our servers' work (the kind of call and its timings, never your e-mail address, name, IP address or browser) are sent to ${brand.tracingProcessor}, which processes them on our behalf, and are deleted after ${brand.traceRetentionDays} days.`
  : '';

export const privacySections: readonly LegalSection[] = [
  {
    heading: 'Who we are',
    paragraphs: [
      `${brand.productName} is operated by ${brand.operator}, ${brand.operatorDescription} ("we", "us"). This policy explains what information we collect when you use our website, apps and VPN service, why we collect it, and the choices you have.`,
      `${brand.productName} is a zero-log VPN. The short version: we keep only what we need to run your account and your subscription, and we never record what you do online.`,
    ],
  },
  {
    heading: 'What we collect',
    paragraphs: ['We collect a small amount of information so that you can sign in and pay for the service:'],
    bullets: [
      'Account details from your sign-in provider: when you sign in with Google or Apple, we receive your e-mail address, your name (if you share it) and an account identifier from that provider. We never see your Google or Apple password.',
      'Subscription and payment status from our card payment provider: whether your subscription is active, your plan, your billing dates and whether auto-renewal is on. Payments are handled on the payment provider’s secure checkout page; we never see or store your full card number.',
      'Signed-in devices: when you open the desktop app from your account, we record the name the app gives your computer (for example "Ada’s MacBook"), when that device was first signed in and the day (never the time) its sign-in was last checked with our servers. We keep the same first and last use for your website sign-ins. This lets your account page list the computers signed in to your account, so you can sign out one you no longer use or do not recognise, and lets us stop a stolen sign-in. It records when a device last used its sign-in with us, not when or for how long you were connected to the VPN, which servers you used, or what you did.',
      'Support messages: if you e-mail us, we keep the conversation so we can help you.',
    ],
  },
  {
    heading: 'What we never collect',
    paragraphs: ['When you are connected to the VPN, we do not collect, log or store:'],
    bullets: [
      'your browsing activity or the websites and apps you use;',
      'the content of your traffic;',
      'your DNS queries;',
      'VPN connection timestamps or session durations (the device records above say only when a device last checked its sign-in with us);',
      'your IP address or the IP address you are assigned while connected.',
    ],
  },
  {
    heading: 'How we use your information',
    paragraphs: ['We use the information we collect only to:'],
    bullets: [
      'create your account and sign you in on the website and in our apps;',
      'process your subscription, renewals, cancellations and refunds;',
      'answer your support requests and send essential service messages, such as billing notices;',
      'prevent fraud and abuse of the service.',
    ],
  },
  {
    heading: 'E-mails we send you',
    paragraphs: [
      'We send e-mail only to the address of your account (shown on your account page), and only about your account and your subscription. We send no newsletters or marketing. The messages, and why each one exists:',
    ],
    bullets: [
      'a receipt for every payment, and a notice of every refund, so you have a record of what you paid and got back;',
      `renewal reminders ${brand.notices.reminderDays.join(' and ')} days before your ${brand.price.interval.adjective} plan renews automatically, with the amount and how to turn auto-renewal off, so a renewal never surprises you;`,
      `a confirmation when you turn auto-renewal off or back on, a notice ${brand.notices.endingDays} days before a plan without auto-renewal ends, and one when it has ended;`,
      'a notice when a renewal payment fails, saying what happens next and how to update your payment method, and one if your plan then ends unpaid;',
      'a security notice when a new desktop device signs in to your account, with its name and time, so you can sign out a device you do not recognise;',
      'a last message when you delete your account, saying what was deleted and what is kept. For this one message we keep your address after deletion, with the message, until it is sent; the record of the sent message is deleted 7 days later.',
    ],
  },
  {
    heading: 'Cookies and local storage',
    paragraphs: [
      'To keep you signed in, our website stores a session token in your browser’s local storage. It is removed when you sign out. Our sign-in provider may set its own cookies while you sign in.',
      'We do not use advertising trackers, and we do not build advertising profiles.',
    ],
  },
  {
    heading: 'Sharing your information',
    paragraphs: [
      'We do not sell, rent or trade your personal information. We share it only with the service providers that help us run the service, and only as far as they need it:',
    ],
    bullets: [
      'our card payment provider, to take payments and manage your subscription;',
      'our identity providers (Google or Apple), to sign you in;',
      'our e-mail delivery provider, which receives your address and the text of the messages above in order to deliver them;',
      ...(brand.tracingProcessor
        ? [`${brand.tracingProcessor}, our performance-tracing provider, which receives traces of our servers' work (never your e-mail address, name, IP address or browser) and keeps them ${brand.traceRetentionDays} days;`]
        : []),
      'authorities, only where the law requires it. Because we keep no activity logs, we have no record of what you do online to hand over.',
    ],
  },
  {
    heading: 'What we keep and for how long',
    paragraphs: [
      'Everything we keep about you, why, for how long, and what deleting your account does to it. This table is built from the same list our systems are checked against, so it cannot drift from what we store.',
    ],
    table: {
      caption: 'What we keep and for how long',
      head: ['What', 'Why', 'How long', 'When you delete your account'],
      rows: RETAINED_DATA.map((entry) => [entry.what, entry.why, keptText(entry), entry.onDeletion]),
    },
  },
  {
    heading: 'Retention and account deletion',
    paragraphs: [
      'We keep your account information for as long as you have an account. You can delete your account at any time from your account page, and deletion takes effect immediately. You can also download a copy of everything we keep about your account from your account page ("Download your data").',
      `Our servers write technical logs to find and fix faults. They never contain your e-mail address, name, IP address, browser, or the links and codes of your account, and they are deleted after ${brand.logRetentionDays} days.${tracingProcessorSentence}`,
      'Device and sign-in records (device name, first and last use) are kept while your account exists, including for devices you have signed out, so that your account keeps a history of where it was signed in; a sign-in itself expires after 30 days. They are deleted, together with your account, when you delete it.',
      'After deletion we keep, for a cool-down period of 7 days, a one-way hash of your account identifier and a one-way hash of your e-mail address, with the time of deletion, and nothing else. They exist only to stop a deleted account from being instantly re-created to abuse the service, and they are deleted when the 7 days are over. For 30 days we also keep a one-way hash of the internal number of the deleted account, so that a payment that still arrives for it (for example from a checkout page left open in another tab) is refunded instead of charged. A hash cannot be turned back into your details, but someone with access to our database who already knows your e-mail address could check it against the hash and learn that an account with that address was deleted in those 7 days. Our payment provider may keep payment records for as long as tax and accounting law requires.',
    ],
  },
  {
    heading: 'Security',
    paragraphs: [
      `VPN connections are encrypted: ${ENCRYPTION_SENTENCE} Our website and apps use encrypted connections, access to our systems is restricted to staff who need it, and we keep the data we hold to a minimum, so there is little to expose even in the worst case.`,
    ],
  },
  {
    heading: 'Children',
    paragraphs: [
      `${brand.productName} is intended for people aged 18 or older. We do not knowingly collect information from anyone under 18. If you believe a child has given us information, contact us and we will delete it.`,
    ],
  },
  {
    heading: 'Your rights',
    paragraphs: ['Depending on where you live, you may have the right to:'],
    bullets: [
      'access the personal information we hold about you;',
      'correct information that is wrong;',
      'delete your account and personal information;',
      'object to or restrict how we use your information;',
      'receive a copy of your information in a portable format.',
    ],
  },
  {
    heading: 'Changes to this policy',
    paragraphs: [
      'We may update this policy from time to time. When we do, we will change the "Last updated" date above, and if the changes are significant we will tell you by e-mail or in the app before they take effect.',
    ],
  },
  {
    heading: 'Contact us',
    paragraphs: [
      `If you have questions about this policy or want to exercise your rights, contact ${brand.operator} by e-mail. Please write from the address on your account so we can verify your request.`,
    ],
    link: { label: brand.supportEmail, href: `mailto:${brand.supportEmail}` },
  },
];

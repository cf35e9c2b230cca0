import { brand } from '../config/brand';
import { ENCRYPTION_SENTENCE } from './encryption';
import type { LegalSection } from './legal-section';
import { REFUND_ARRIVES_WITHIN } from '../../contract/refund-timing';

export const termsSections: readonly LegalSection[] = [
  {
    heading: 'Agreement',
    paragraphs: [
      `These Terms of Service ("Terms") are an agreement between you and ${brand.operator}, ${brand.operatorDescription} ("we", "us"), the operator of ${brand.productName}. By creating an account or using our website, apps or VPN service (together, the "Service"), you agree to these Terms. If you do not agree, do not use the Service.`,
    ],
  },
  {
    heading: 'Service description',
    paragraphs: [
      `${brand.productName} is a virtual private network service. It encrypts the connection between your device and our servers to help protect your privacy, including on public Wi-Fi: ${ENCRYPTION_SENTENCE} One subscription can be used on up to ${brand.deviceLimit} devices.`,
    ],
  },
  {
    heading: 'Eligibility and accounts',
    paragraphs: [
      'You must be 18 or older to use the Service. You sign in with a Google or Apple account, and you are responsible for keeping that account secure and for all activity under your account.',
      'One account per person or organisation. Do not create several accounts for yourself, and do not resell access to the Service.',
    ],
  },
  {
    heading: 'Acceptable use',
    paragraphs: ['You agree not to use the Service to:'],
    bullets: [
      'break any applicable law or help anyone else do so;',
      'send spam, or distribute malware or other harmful code;',
      'attack, scan or try to gain unauthorised access to any network, system or account, including ours;',
      'infringe the intellectual property or privacy rights of others;',
      'disrupt the Service or overload our servers, or interfere with other users’ use of it.',
    ],
  },
  {
    heading: 'Auto-renewable subscriptions',
    paragraphs: [
      `The Service is sold as the ${brand.price.planName}, which costs ${brand.price.amount} per ${brand.price.interval.noun}, charged in advance to the card you provide through our payment provider.`,
    ],
    bullets: [
      `Your subscription renews automatically at the end of each ${brand.price.interval.adjective} period, and the price of the next period is charged to your card, unless you turn off auto-renewal.`,
      'To avoid the next charge, cancel auto-renewal from your account page at least 24 hours before renewal. You keep access until the end of the period you have paid for.',
      'You can turn auto-renewal back on from your account page at any time before your paid period ends.',
      `Every account comes with a ${brand.moneyBack.name}: within ${brand.moneyBack.days} days of your subscription's first payment, choose Cancel and refund under Billing history on your account page (or write to us). Your subscription and your access to the Service end at once, and that payment is refunded in full. The guarantee covers the first payment of your current subscription, once per account.`,
      `Refunds are returned to your original payment method within ${REFUND_ARRIVES_WITHIN}.`,
    ],
  },
  {
    heading: 'Availability',
    paragraphs: [
      'We aim for 99.9% uptime, but we do not guarantee that the Service will always be available, uninterrupted or error-free. We may need to suspend parts of it for maintenance, security or reasons beyond our control, and server locations may change over time.',
    ],
  },
  {
    heading: 'Privacy',
    paragraphs: [
      `${brand.productName} is a zero-log service: we do not record your browsing activity or traffic. Our Privacy Policy explains what information we do collect and how we use it.`,
    ],
    link: { label: 'Read our Privacy Policy', href: '/privacy' },
  },
  {
    heading: 'Suspension and termination',
    paragraphs: [
      'You may stop using the Service and delete your account at any time from your account page. We may suspend or end your access if you seriously or repeatedly break these Terms.',
    ],
  },
  {
    heading: 'Limitation of liability',
    paragraphs: [
      'The Service is provided "as is" and "as available". To the fullest extent the law allows, we are not liable for indirect, incidental or consequential losses, and our total liability to you for any claim relating to the Service is limited to the amount you paid us in the last 12 months.',
      'Nothing in these Terms limits any rights you have under law that cannot be limited by agreement.',
    ],
  },
  {
    heading: 'Changes to these Terms',
    paragraphs: [
      'We may update these Terms from time to time. When we do, we will change the "Last updated" date above, and if the changes are significant we will tell you by e-mail or in the app before they take effect. If you keep using the Service after changes take effect, you accept the updated Terms.',
    ],
  },
  {
    heading: 'Contact',
    paragraphs: [`Questions about these Terms? Contact ${brand.operator} by e-mail.`],
    link: { label: brand.supportEmail, href: `mailto:${brand.supportEmail}` },
  },
];

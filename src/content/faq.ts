import { brand } from '../config/brand';
import { ENCRYPTION_SENTENCE } from './encryption';
import { WIREGUARD_ELSEWHERE } from './wireguard-elsewhere';
import { REFUND_ARRIVES_WITHIN } from '../../contract/refund-timing';

interface FaqItem {
  question: string;
  answer: string;
  /** A page of the site the answer points to, drawn as a link after it. */
  link?: { to: '/status'; text: string };
}

export interface FaqCategory {
  category: string;
  items: FaqItem[];
}

const price = `${brand.price.amount} per ${brand.price.interval.noun}`;

export const faq: readonly FaqCategory[] = [
  {
    category: 'Setup & Installation',
    items: [
      {
        question: `How do I get started with ${brand.productName}?`,
        answer: `Sign in on this website with your Google or Apple account, choose the ${brand.price.planName} (${price}) and pay on the secure checkout page. Then download the app, open it and sign in with the same account. On a computer, the website can open the desktop app for you and sign you in automatically.`,
      },
      {
        question: 'Which devices and operating systems are supported?',
        answer: `The ${brand.productName} app runs on macOS 11 or later, Windows 10 or later, iOS 14 or later and Android 8 or later, and needs about 50MB of free storage. Linux, routers and other devices connect with WireGuard instead (the next answer says how).`,
      },
      {
        question: 'Can I use it on Linux or a router?',
        answer: `Yes. ${WIREGUARD_ELSEWHERE}`,
      },
      {
        question: 'How many devices can I use at the same time?',
        answer: `One subscription covers up to ${brand.deviceLimit} devices, so you can protect your phone, tablet and computers with a single account. Sign in with the same Google or Apple account on each device.`,
      },
      {
        question: 'Do I need to create a separate account or password?',
        answer: `No. You sign in with Google or Apple, and your ${brand.productName} account is created the first time you do. There is no extra password to remember.`,
      },
    ],
  },
  {
    category: 'Connection Issues',
    items: [
      {
        question: 'The app will not connect. What should I try first?',
        answer: `Check that your device is online without the VPN, then close and reopen the app and connect again. If that does not help, switch to another server location, restart your device and make sure the app is up to date. Still stuck? E-mail us at ${brand.supportEmail} with your device, operating system version and the time the problem happened.`,
      },
      {
        question: 'Why is my connection slower with the VPN on?',
        answer: `Your traffic takes an extra, encrypted route through our servers, so a small drop in speed is normal. We never throttle bandwidth. For the best speed, choose the server location closest to you, and try switching between Wi-Fi and mobile data to rule out a slow local network.`,
      },
      {
        question: 'Which server locations are available?',
        answer: `Our servers are currently located in the United States and Nigeria, and every location is included in your subscription at no extra cost.`,
      },
      {
        question: 'How reliable is the service?',
        answer: `We target 99.9% uptime and monitor our servers around the clock. If a server has a problem, connect to another location while we fix it. Each server's state, load and measured uptime are public on our status page.`,
        link: { to: '/status', text: 'See the server status' },
      },
      {
        question: 'Does the VPN work on public Wi-Fi?',
        answer: `Yes. Public Wi-Fi in cafés, hotels and airports is where a VPN helps most: once you are connected, everything you send is encrypted, so other people on the same network cannot read it. Some networks show a sign-in page first; complete it, then connect the VPN.`,
      },
    ],
  },
  {
    category: 'Security & Privacy',
    items: [
      {
        question: 'Do you keep logs of my activity?',
        answer: `No. ${brand.productName} is a zero-log service: we do not record the websites you visit, your traffic, your DNS queries, your connection times or the IP address you connect from. We only keep what we need to run your account, such as your e-mail address and subscription status: the privacy policy's table "What we keep and for how long" lists all of it, why and for how long, and you can download a copy from your account page.`,
      },
      {
        question: 'What encryption do you use?',
        answer: `${ENCRYPTION_SENTENCE} Both are industry standards, secure and quick to reconnect when your network changes.`,
      },
      {
        question: 'Can my internet provider see what I do online?',
        answer: `While you are connected, your internet provider can see that you are using a VPN, but not the websites you visit or what you send, because all of it travels inside the encrypted tunnel.`,
      },
      {
        question: 'Who runs the service?',
        answer: `${brand.productName} is operated by ${brand.operator}, ${brand.operatorDescription}. Our Privacy Policy explains exactly what we collect and why.`,
      },
    ],
  },
  {
    category: 'Account & Billing',
    items: [
      {
        question: 'How much does it cost?',
        answer: `There is one plan, the ${brand.price.planName}: ${price}, which works out at about ${brand.price.perMonth} per month. It includes every server location, unlimited bandwidth and up to ${brand.deviceLimit} devices.`,
      },
      {
        question: 'Does my subscription renew automatically?',
        answer: `Yes. Your subscription renews automatically each ${brand.price.interval.noun} so your protection never lapses. To stop the next charge, choose Turn Off Auto-Renewal on your account page at least 24 hours before the renewal date. You keep full access until the end of the period you have paid for, and you can turn auto-renewal back on until then.`,
      },
      {
        question: 'Can I get a refund?',
        answer: `Yes. Every account comes with a ${brand.moneyBack.name}. Within ${brand.moneyBack.days} days of your subscription's first payment, choose Cancel and refund under Billing history on your account page: your subscription and your VPN access end at once, and your payment is refunded in full, returned to your card within ${REFUND_ARRIVES_WITHIN}. The guarantee covers your current subscription's first payment, once per account. Questions? E-mail ${brand.supportEmail}.`,
      },
      {
        question: 'How do I delete my account?',
        answer: `Go to your account page and choose Delete Account. Deletion is immediate and cannot be undone: your account, profile, subscription data and settings are removed. If your subscription is still active, turn off auto-renewal first so you are not charged again.`,
      },
    ],
  },
  {
    category: 'Technical Support',
    items: [
      {
        question: 'How do I contact support?',
        answer: `E-mail us at ${brand.supportEmail}. Our support team is available 24/7 and answers every message.`,
      },
      {
        question: 'What should I include in my support request?',
        answer: `Tell us the e-mail address you sign in with, your device and operating system version, the app version, and what happened, including any error message and roughly when it occurred. Never send us your password or full card number; we will never ask for them.`,
      },
      {
        question: 'The desktop app did not open after I signed in. What now?',
        answer: `Make sure the desktop app is installed, then go to your account page and choose Open VPN App. If your browser asks for permission to open the app, allow it. If it still does not open, download the app again and reinstall it.`,
      },
    ],
  },
];

/**
 * Each public page's meta description, written into its prerendered HTML by the build (src/prerender.tsx).
 * Not part of the browser's bundle: search engines read the page as the server sends it.
 */
import { brand } from '../../config/brand';
import { ENCRYPTION_FEATURE } from '../../content/encryption';

export const PAGE_DESCRIPTIONS: Record<string, string> = {
  '/': `${brand.productName}: a zero-log VPN for all your devices, ${ENCRYPTION_FEATURE}. One simple ${brand.price.interval.formalAdjective} plan.`,
  '/download': `Download ${brand.productName} for macOS 11+, Windows 10+, iOS 14+ and Android 8+ (about 50 MB).`,
  '/support': `Help with ${brand.productName}: setup and installation on every device, answers to common questions, and how to reach our support team.`,
  '/privacy': `How ${brand.operator} handles your data when you use ${brand.productName}: what we collect, what we never log, and your rights.`,
  '/terms': `The terms that govern your use of ${brand.productName} and its ${brand.price.interval.formalAdjective} subscription.`,
  '/signin': `Sign in to ${brand.productName} with Google or Apple. New users get an account created instantly.`,
  '/success': `Your ${brand.premiumName} subscription is on its way: what to do next.`,
  '/account': `Your ${brand.productName} account: subscription, auto-renewal and devices.`,
  '/status': `Every ${brand.productName} server: online, offline or in maintenance, its load and its measured uptime against our 99.9% target.`,
  '/cancel': `Your payment was cancelled and you were not charged. ${brand.price.summary}.`,
};

export const NOT_FOUND_DESCRIPTION = `This page does not exist. Go back to ${brand.productName}'s home page.`;

/**
 * A release build of the website refuses the placeholder addresses (example.com) that src/config/brand.ts
 * uses by default (issue 22 item 12): a customer must never be sent to a download or form that does not
 * exist. Local builds (npm start, the tests, the size check: scripts/lib/spa-build.mjs) set
 * ALLOW_PLACEHOLDER_URLS=true; `npm run build` on its own, as a deploy runs it, does not.
 */
type Env = Record<string, string | undefined>;

/** Every brand address a build variable sets, with the default brand.ts falls back to. */
const BRAND_ADDRESSES: Record<string, string> = {
  VITE_DOWNLOAD_URL_MACOS: 'https://example.com/download/macos',
  VITE_DOWNLOAD_URL_WINDOWS: 'https://example.com/download/windows',
  VITE_DOWNLOAD_URL_IOS: 'https://example.com/download/ios',
  VITE_DOWNLOAD_URL_ANDROID: 'https://example.com/download/android',
  VITE_LEARN_MORE_URL: 'https://example.com/learn-more',
  VITE_SUPPORT_EMAIL: 'support@example.com',
};

const PLACEHOLDER = /(^|[/.@])example\.(com|org|net)([/:?#]|$)/i;

/** Why this build must not go out, in one line naming each variable to set; null when it may. */
export function placeholderRefusal(env: Env): string | null {
  if (env.ALLOW_PLACEHOLDER_URLS === 'true') return null;
  const placeholders = Object.entries(BRAND_ADDRESSES)
    .filter(([variable, fallback]) => PLACEHOLDER.test(env[variable]?.trim() || fallback))
    .map(([variable]) => variable);
  if (placeholders.length === 0) return null;
  return (
    `Refusing to build the website with placeholder (example.com) addresses: set ${placeholders.join(', ')} ` +
    '(or ALLOW_PLACEHOLDER_URLS=true for a local build that no customer will see).'
  );
}

/**
 * The platforms Veil VPN runs on, their requirements (spec §9) and downloads, and which one a visitor is on
 * (issue 22 item 3). Pure: the caller passes the user agent, so it is tested without a browser.
 */
import { brand } from './brand';

export type PlatformId = 'macos' | 'windows' | 'ios' | 'android';

export interface Platform {
  id: PlatformId;
  name: string;
  requirement: string;
  url: string;
  /** Desktop downloads go through /download#<id> (requirements beside the button); phones go to their store. */
  kind: 'desktop' | 'phone';
}

export const PLATFORMS: readonly Platform[] = [
  { id: 'macos', name: 'macOS', requirement: 'macOS 11 or later', url: brand.downloadUrls.macos, kind: 'desktop' },
  { id: 'windows', name: 'Windows', requirement: 'Windows 10 or later', url: brand.downloadUrls.windows, kind: 'desktop' },
  { id: 'ios', name: 'iPhone and iPad', requirement: 'iOS 14 or later', url: brand.downloadUrls.ios, kind: 'phone' },
  { id: 'android', name: 'Android', requirement: 'Android 8 or later', url: brand.downloadUrls.android, kind: 'phone' },
];

export const DOWNLOAD_SIZE = 'about 50 MB of storage';

/**
 * The visitor's platform from the user agent, or null (Linux, ChromeOS, a crawler). iPadOS presents itself
 * as a Mac: a "Macintosh" with a touch screen is an iPad, so iOS.
 */
export function detectPlatform(userAgent: string, maxTouchPoints = 0): PlatformId | null {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'ios';
  if (/macintosh|mac os x/i.test(userAgent)) return maxTouchPoints > 1 ? 'ios' : 'macos';
  if (/windows/i.test(userAgent)) return 'windows';
  return null;
}

/** Where "Download Now" / "Download App" lead: the /download page's section, a phone's store, or the whole list. */
export function downloadHref(platform: PlatformId | null): string {
  const found = PLATFORMS.find((candidate) => candidate.id === platform);
  if (!found) return '/download';
  return found.kind === 'phone' ? found.url : `/download#${found.id}`;
}

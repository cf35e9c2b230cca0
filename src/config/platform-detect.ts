/**
 * Which platform a visitor is on, and where their download button leads (issue 22 item 3). Pure, and apart
 * from the platform list (src/config/platforms.ts) so the home page's first load carries only this.
 */
import { brand } from './brand';

export type PlatformId = 'macos' | 'windows' | 'ios' | 'android';

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

/** A desktop system there is no app for yet (Linux, ChromeOS), named for the visitor; null for any other. */
export function unsupportedSystem(userAgent: string): string | null {
  if (/android/i.test(userAgent)) return null;
  if (/cros/i.test(userAgent)) return 'ChromeOS';
  if (/linux|x11/i.test(userAgent)) return 'Linux';
  return null;
}

/**
 * Where "Download Now" / "Download App" lead: a desktop's section of /download (its requirement beside the
 * button), a phone's own store, or the whole list.
 */
export function downloadHref(platform: PlatformId | null): string {
  if (platform === 'ios' || platform === 'android') return brand.downloadUrls[platform];
  return platform ? `/download#${platform}` : '/download';
}

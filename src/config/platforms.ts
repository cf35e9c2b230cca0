/** The platforms Veil VPN runs on, their requirements (spec §9) and downloads (issue 22 item 3): /download lists them. */
import { brand } from './brand';
import type { PlatformId } from './platform-detect';

export interface Platform {
  id: PlatformId;
  name: string;
  requirement: string;
  url: string;
  /** Phones and tablets get their store download where a desktop gets its app link (/success, /cancel). */
  kind: 'desktop' | 'phone';
}

export const PLATFORMS: readonly Platform[] = [
  { id: 'macos', name: 'macOS', requirement: 'macOS 11 or later', url: brand.downloadUrls.macos, kind: 'desktop' },
  { id: 'windows', name: 'Windows', requirement: 'Windows 10 or later', url: brand.downloadUrls.windows, kind: 'desktop' },
  { id: 'ios', name: 'iPhone and iPad', requirement: 'iOS 14 or later', url: brand.downloadUrls.ios, kind: 'phone' },
  { id: 'android', name: 'Android', requirement: 'Android 8 or later', url: brand.downloadUrls.android, kind: 'phone' },
];

export const DOWNLOAD_SIZE = 'about 50 MB of storage';

import { useHydrated } from './use-hydrated';
import { detectPlatform, downloadHref, type PlatformId } from '../config/platform-detect';

/** The visitor's platform once React has the page (prerendered HTML is the same for everyone), else null. */
export function useVisitorPlatformId(): PlatformId | null {
  const hydrated = useHydrated();
  if (!hydrated || typeof navigator === 'undefined') return null;
  return detectPlatform(navigator.userAgent, navigator.maxTouchPoints);
}

/** The visitor's download link: /download (every platform) until the platform is known, then theirs. */
export function useDownloadHref(): string {
  return downloadHref(useVisitorPlatformId());
}

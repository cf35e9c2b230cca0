import { useHydrated } from '../app/use-hydrated';
import { PLATFORMS, detectPlatform, downloadHref, type Platform } from '../config/platforms';

/**
 * The visitor's platform, once React has the page (prerendered pages do not know the visitor: their HTML
 * is the same for everyone); null before then and for systems without an app.
 */
export function useVisitorPlatform(): Platform | null {
  const hydrated = useHydrated();
  if (!hydrated || typeof navigator === 'undefined') return null;
  const id = detectPlatform(navigator.userAgent, navigator.maxTouchPoints);
  return PLATFORMS.find((platform) => platform.id === id) ?? null;
}

/** The visitor's download link: /download (every platform) until the platform is known, then theirs. */
export function useDownloadHref(): string {
  return downloadHref(useVisitorPlatform()?.id ?? null);
}

import { useHydrated } from '../app/use-hydrated';
import { detectPlatform, downloadHref } from '../config/platforms';

/**
 * The visitor's download link. Prerendered pages do not know the visitor, so the HTML carries /download (all
 * platforms); once React has the page, the link points at the visitor's own platform.
 */
export function useDownloadHref(): string {
  const hydrated = useHydrated();
  if (!hydrated || typeof navigator === 'undefined') return '/download';
  return downloadHref(detectPlatform(navigator.userAgent, navigator.maxTouchPoints));
}

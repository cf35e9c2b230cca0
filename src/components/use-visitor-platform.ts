import { PLATFORMS, type Platform } from '../config/platforms';
import { useVisitorPlatformId } from './use-download-href';

/** The visitor's platform with its name and download, once React has the page; null before then and for others. */
export function useVisitorPlatform(): Platform | null {
  const id = useVisitorPlatformId();
  return PLATFORMS.find((platform) => platform.id === id) ?? null;
}

import { useHydrated } from '../../components/use-hydrated';
import { useVisitorPlatform } from '../../components/use-visitor-platform';
import { unsupportedSystem } from '../../config/platform-detect';
import { DownloadPage } from '../../screens/download-page';
import { mantinePage } from '../../app/frame/mantine-page';

/** The prerendered list for everyone; once hydrated, the visitor's system first, or for Linux users how to connect with WireGuard. */
export function Download() {
  const hydrated = useHydrated();
  const visitor = useVisitorPlatform();
  const unsupported = hydrated ? unsupportedSystem(navigator.userAgent) : null;
  return <DownloadPage visitor={visitor} unsupported={unsupported} />;
}

export const PublicPage = mantinePage(Download);

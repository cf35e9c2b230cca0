import { useAppLink } from '../../app/hooks/use-app-link';
import { useVisitorPlatform } from '../../components/use-visitor-platform';
import { brand } from '../../config/brand';
import { openAppLink } from '../../services/navigation';
import { CancelPage } from '../../screens/cancel-page';
import { mantinePage } from '../../app/frame/mantine-page';

/** /cancel wired to the app link (src/routes/_mantine/cancel.tsx shows it under the router). */
export function Cancel() {
  const app = useAppLink(() => openAppLink(brand.deepLinks.cancel));
  const platform = useVisitorPlatform();
  return <CancelPage appLink={{ phase: app.phase, onOpen: app.open }} phone={platform?.kind === 'phone' ? platform : null} />;
}

export const PublicPage = mantinePage(Cancel);

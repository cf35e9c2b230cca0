import { createFileRoute } from '@tanstack/react-router';
import { useAppLink } from '../../app/hooks/use-app-link';
import { useVisitorPlatform } from '../../components/use-visitor-platform';
import { brand } from '../../config/brand';
import { openAppLink } from '../../services/navigation';
import { CancelPage } from '../../screens/cancel-page';

export const Route = createFileRoute('/_mantine/cancel')({
  component: CancelRoute,
});

function CancelRoute() {
  const app = useAppLink(() => openAppLink(brand.deepLinks.cancel));
  const platform = useVisitorPlatform();
  return <CancelPage appLink={{ phase: app.phase, onOpen: app.open }} phone={platform?.kind === 'phone' ? platform : null} />;
}

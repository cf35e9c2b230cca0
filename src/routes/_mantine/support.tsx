import { createFileRoute } from '@tanstack/react-router';
import { SupportPage } from '../../screens/support-page';

export const Route = createFileRoute('/_mantine/support')({
  component: SupportPage,
});

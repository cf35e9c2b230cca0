import { createFileRoute } from '@tanstack/react-router';
import { CancelPage } from '../../screens/cancel-page';

export const Route = createFileRoute('/_mantine/cancel')({
  component: CancelPage,
});

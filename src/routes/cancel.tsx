import { createFileRoute } from '@tanstack/react-router';
import { CancelPage } from '../screens/cancel-page';

export const Route = createFileRoute('/cancel')({
  component: CancelPage,
});

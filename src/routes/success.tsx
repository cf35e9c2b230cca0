import { createFileRoute } from '@tanstack/react-router';
import { SuccessPage } from '../screens/success-page';

export const Route = createFileRoute('/success')({
  component: SuccessPage,
});

import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../screens/home-page';

export const Route = createFileRoute('/')({
  component: HomePage,
});

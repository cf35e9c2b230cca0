import { createFileRoute } from '@tanstack/react-router';
import { SubscribeRoute } from '../../features/subscribe/subscribe';

export const Route = createFileRoute('/_mantine/subscribe')({
  component: SubscribeRoute,
});

import { createFileRoute } from '@tanstack/react-router';
import { Cancel } from '../../features/cancel/cancel';

export const Route = createFileRoute('/_mantine/cancel')({
  component: Cancel,
});

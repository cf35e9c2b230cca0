import { createFileRoute } from '@tanstack/react-router';
import { Cancel } from '../../app/pages/cancel';

export const Route = createFileRoute('/_mantine/cancel')({
  component: Cancel,
});

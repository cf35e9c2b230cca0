import { createFileRoute } from '@tanstack/react-router';
import { Status } from '../../features/status/status';

export const Route = createFileRoute('/_mantine/status')({
  component: Status,
});

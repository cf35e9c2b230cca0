import { createFileRoute } from '@tanstack/react-router';
import { Status } from '../../app/pages/status';

export const Route = createFileRoute('/_mantine/status')({
  component: Status,
});

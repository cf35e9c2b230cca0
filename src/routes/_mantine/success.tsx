import { createFileRoute } from '@tanstack/react-router';
import { Success } from '../../features/success/success';

export const Route = createFileRoute('/_mantine/success')({
  component: Success,
});

import { createFileRoute } from '@tanstack/react-router';
import { Success } from '../../app/pages/success';

export const Route = createFileRoute('/_mantine/success')({
  component: Success,
});

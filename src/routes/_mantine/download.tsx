import { createFileRoute } from '@tanstack/react-router';
import { Download } from '../../features/download/download';

export const Route = createFileRoute('/_mantine/download')({
  component: Download,
});

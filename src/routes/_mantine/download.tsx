import { createFileRoute } from '@tanstack/react-router';
import { Download } from '../../app/pages/download';

export const Route = createFileRoute('/_mantine/download')({
  component: Download,
});

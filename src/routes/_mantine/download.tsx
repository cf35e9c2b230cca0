import { createFileRoute } from '@tanstack/react-router';
import { DownloadPage } from '../../screens/download-page';

export const Route = createFileRoute('/_mantine/download')({
  component: DownloadPage,
});

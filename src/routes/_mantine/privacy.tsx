import { createFileRoute } from '@tanstack/react-router';
import { PrivacyPage } from '../../screens/privacy-page';

export const Route = createFileRoute('/_mantine/privacy')({
  component: PrivacyPage,
});

import { createFileRoute } from '@tanstack/react-router';
import { TermsPage } from '../../screens/terms-page';

export const Route = createFileRoute('/_mantine/terms')({
  component: TermsPage,
});

import { createFileRoute } from '@tanstack/react-router';
import { guardRoute } from '../../app/router/guards';
import { PageSpinner } from '../../components/page-spinner';
import { AccountRoute } from '../../features/account/account-page';

export const Route = createFileRoute('/_mantine/account')({
  beforeLoad: (options) => guardRoute(options),
  pendingComponent: () => <PageSpinner />,
  component: AccountRoute,
});

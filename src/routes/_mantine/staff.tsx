import { createFileRoute } from '@tanstack/react-router';
import { guardRoute } from '../../app/router/guards';
import { PageSpinner } from '../../components/page-spinner';
import { StaffConsolePage } from '../../features/staff/staff-console';

/**
 * /staff (issue 30, item 7): the staff console, in a chunk of its own (the router splits each route's
 * component), which no public or customer page loads. A visitor must be signed in; one without a staff
 * claim sees the plain 404 page, one whose sign-in must be renewed (a role just granted) is asked to sign in
 * again (src/features/staff/README.md).
 */
export const Route = createFileRoute('/_mantine/staff')({
  beforeLoad: (options) => guardRoute(options),
  pendingComponent: () => <PageSpinner />,
  component: StaffConsolePage,
});

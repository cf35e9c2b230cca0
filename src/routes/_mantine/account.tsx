import { createFileRoute } from '@tanstack/react-router';
import { guardRoute } from '../../app/router/guards';
import { useSessionTag, useSessionView } from '../../app/hooks/use-session';
import { PageSpinner } from '../../components/page-spinner';
import { AccountLayout, SignInRequired } from '../../screens/account-page';
import { AccountInformation } from '../../features/account/account-information/account-information';
import { SubscriptionStatus } from '../../features/account/subscription/subscription-status';
import { Devices } from '../../features/account/devices/devices';
import { BillingHistory } from '../../features/account/billing-history/billing-history';
import { Help } from '../../features/account/help/help';
import { AccountActivity } from '../../features/account/activity/account-activity';
import { DangerZone } from '../../features/account/danger-zone/danger-zone';
import { YourData } from '../../features/account/your-data/your-data';

export const Route = createFileRoute('/_mantine/account')({
  beforeLoad: (options) => guardRoute(options),
  pendingComponent: () => <PageSpinner />,
  component: AccountRoute,
});

/** The account page composes its cards (src/features/account/README.md); each owns its machine and services. */
function AccountRoute() {
  const signedIn = useSessionView((view) => view.context.user !== null);
  const loading = useSessionTag('loading');
  if (loading) return <PageSpinner />;
  // The session ended while the page was open (e.g. another tab signed out): design §5.
  if (!signedIn) return <SignInRequired />;
  return (
    <AccountLayout>
      <AccountInformation />
      <SubscriptionStatus />
      <Devices />
      <BillingHistory />
      <AccountActivity />
      <YourData />
      <Help />
      <DangerZone />
    </AccountLayout>
  );
}

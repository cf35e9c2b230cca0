import { createFileRoute } from '@tanstack/react-router';
import { guardRoute } from '../../app/router/guards';
import { useSessionTag, useSessionView } from '../../app/hooks/use-session';
import { PageSpinner } from '../../components/page-spinner';
import { usePartsInTurn } from '../../app/hooks/use-parts-in-turn';
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

/**
 * The account page's cards, in the page's order (src/features/account/README.md): each owns its machine and
 * services. A card reads only cards before it (the danger zone reads the billing history).
 */
const CARDS = [
  { id: 'account-information', Card: AccountInformation },
  { id: 'subscription', Card: SubscriptionStatus },
  { id: 'devices', Card: Devices },
  { id: 'billing-history', Card: BillingHistory },
  { id: 'activity', Card: AccountActivity },
  { id: 'your-data', Card: YourData },
  { id: 'help', Card: Help },
  { id: 'danger-zone', Card: DangerZone },
] as const;
/** The cards of a phone's first screen (account information, subscription), rendered at once. */
const FIRST_SCREEN_CARDS = 2;

function AccountRoute() {
  const signedIn = useSessionView((view) => view.context.user !== null);
  const loading = useSessionTag('loading');
  if (loading) return <PageSpinner />;
  // The session ended while the page was open (e.g. another tab signed out): design §5.
  if (!signedIn) return <SignInRequired />;
  return <AccountCards />;
}

/** The first screen's cards at once, then one card per task (usePartsInTurn); the footer waits for the last. */
function AccountCards() {
  const shown = usePartsInTurn(CARDS.length, FIRST_SCREEN_CARDS);
  return (
    <AccountLayout>
      {CARDS.slice(0, shown).map(({ id, Card }) => (
        <Card key={id} />
      ))}
      {shown < CARDS.length && <span hidden data-footer-waits />}
    </AccountLayout>
  );
}

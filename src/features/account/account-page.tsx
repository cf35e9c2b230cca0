import { lazy, Suspense } from 'react';
import { useSessionTag, useSessionView } from '../../app/hooks/use-session';
import { PageSpinner } from '../../components/page-spinner';
import { usePartsInTurn } from '../../app/hooks/use-parts-in-turn';
import { AccountLayout, SignInRequired } from '../../screens/account-page';
import { AccountInformation } from './account-information/account-information';
import { SubscriptionStatus } from './subscription/subscription-status';

/**
 * The cards below a phone's first screen come in a chunk of their own, asked for once the first two are on
 * screen (issue 32 item 4): the page's first screen no longer waits for their code and dialogs on a slow
 * network. One import for all six, so they arrive in one request.
 */
const belowFirstScreen = () => import('./below-first-screen');
const laterCard = (name: keyof Awaited<ReturnType<typeof belowFirstScreen>>) => lazy(() => belowFirstScreen().then((cards) => ({ default: cards[name] })));

/**
 * The account page's cards, in the page's order (src/features/account/README.md): each owns its machine and
 * services. A card reads only cards before it (the danger zone reads the billing history).
 */
const CARDS = [
  { id: 'account-information', Card: AccountInformation },
  { id: 'subscription', Card: SubscriptionStatus },
  { id: 'devices', Card: laterCard('Devices') },
  { id: 'billing-history', Card: laterCard('BillingHistory') },
  { id: 'activity', Card: laterCard('AccountActivity') },
  { id: 'your-data', Card: laterCard('YourData') },
  { id: 'help', Card: laterCard('Help') },
  { id: 'danger-zone', Card: laterCard('DangerZone') },
] as const;
/** The cards of a phone's first screen (account information, subscription), rendered at once. */
const FIRST_SCREEN_CARDS = 2;

/** /account (src/routes/_mantine/account.tsx shows it behind the route's guard). */
export function AccountRoute() {
  const signedIn = useSessionView((view) => view.context.user !== null);
  const loading = useSessionTag('loading');
  if (loading) return <PageSpinner />;
  // The session ended while the page was open (e.g. another tab signed out): design §5.
  if (!signedIn) return <SignInRequired />;
  return <AccountCards />;
}

/**
 * The first screen's cards at once, then one card per task (usePartsInTurn); the footer waits for the last.
 * Each later card is shown in a transition, so while its code is still on its way React keeps the page as it
 * is (the footer still waiting) instead of showing the Suspense fallback.
 */
function AccountCards() {
  const shown = usePartsInTurn(CARDS.length, FIRST_SCREEN_CARDS);
  const footerWaits = <span hidden data-footer-waits />;
  return (
    <AccountLayout>
      {CARDS.slice(0, FIRST_SCREEN_CARDS).map(({ id, Card }) => (
        <Card key={id} />
      ))}
      <Suspense fallback={footerWaits}>
        {CARDS.slice(FIRST_SCREEN_CARDS, shown).map(({ id, Card }) => (
          <Card key={id} />
        ))}
        {shown < CARDS.length && footerWaits}
      </Suspense>
    </AccountLayout>
  );
}

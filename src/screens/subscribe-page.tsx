import { Link } from '@tanstack/react-router';
import { Button, Card, Container, Stack, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { ENCRYPTION_FEATURE } from '../content/encryption';
import { CheckList } from '../components/check-list';
import { PlanPrice } from '../components/plan-price';
import { PageSpinner } from '../components/page-spinner';
import longText from '../components/long-text.module.css';
import { ProviderButtons } from '../components/provider-buttons';
import { SignInSupport } from '../components/sign-in-support';
import { TermsLine } from '../components/terms-line';
import { RenewalDisclosure } from '../components/renewal-disclosure';

const FEATURES = [
  'All server locations worldwide',
  ENCRYPTION_FEATURE,
  'Unlimited bandwidth, no throttling',
  `Up to ${brand.deviceLimit} devices at once`,
  'Strict zero-log policy',
  '24/7 support',
  brand.moneyBack.name,
];

export type SubscribePageProps =
  | { view: 'loading' }
  | {
      view: 'signedOut';
      onGoogle: () => void;
      /** Apple too (design §8): an Apple customer sent here must not make a second, Google account. */
      onApple: () => void;
      signingIn?: boolean;
      supportMessage?: string | null;
    }
  | {
      view: 'signedIn';
      email: string;
      onSubscribe: () => void;
      redirecting: boolean;
      /** The account has had its money-back refund, once per account: not promised again (issue 45, T8). */
      moneyBackUsed?: boolean;
    }
  | { view: 'subscriber'; email: string };

export function SubscribePage(props: SubscribePageProps) {
  if (props.view === 'loading') return <PageSpinner label="Loading your account" footerWaits />;

  if (props.view === 'signedOut') {
    const blocked = Boolean(props.supportMessage);
    return (
      <Container size={480} py={{ base: 48, md: 80 }}>
        <Card withBorder shadow="sm" padding="xl" radius="lg">
          <Stack align="center" ta="center" gap="sm">
            <Title order={1} size="h2">
              Sign In to Continue
            </Title>
            <Text c="dimmed">Sign in to subscribe to {brand.premiumName}.</Text>
          </Stack>
          {/* What they are signing in for: the plan and its price (issue 22 item 4). */}
          <Card withBorder padding="md" radius="md" mt="lg">
            <PlanPrice headingOrder={2} badge={brand.price.badge} />
            {/* Where a signed-out visitor first reads the price, it says it renews (issue 34). */}
            <Stack mt="md">
              <RenewalDisclosure />
            </Stack>
          </Card>
          <Stack gap="sm" mt="lg">
            {blocked && <SignInSupport message={props.supportMessage!} />}
            <ProviderButtons
              googleLabel="Sign in with Google"
              appleLabel="Sign in with Apple"
              onGoogle={props.onGoogle}
              onApple={props.onApple}
              busy={props.signingIn}
              disabled={blocked}
            />
          </Stack>
          <TermsLine />
        </Card>
      </Container>
    );
  }

  if (props.view === 'subscriber') {
    // Already Premium: no sales pitch and no live Subscribe Now (issue 22 item 4).
    return (
      <Container size={480} py={{ base: 48, md: 80 }}>
        <Card withBorder shadow="sm" padding="xl" radius="lg">
          <Stack align="center" ta="center" gap="sm">
            <Title order={1} size="h2">
              You already have {brand.premiumName}
            </Title>
            <Text c="dimmed" className={longText.wrap}>
              Your subscription for <strong>{props.email}</strong> is active. Manage it, or open the app, from your
              account.
            </Text>
            <Button component={Link} to="/account" size="md" mt="sm">
              Go to My Account
            </Button>
          </Stack>
        </Card>
      </Container>
    );
  }

  return (
    <Container size="sm" py={{ base: 48, md: 80 }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Subscribe to {brand.premiumName}</Title>
          <Text c="dimmed" mt={4} className={longText.wrap}>
            Signed in as <strong>{props.email}</strong>
          </Text>
        </div>
        <Card withBorder shadow="md" padding="xl" radius="lg">
          <PlanPrice headingOrder={2} badge={brand.price.badge} />
          <CheckList items={props.moneyBackUsed ? FEATURES.filter((feature) => feature !== brand.moneyBack.name) : FEATURES} />
          {props.moneyBackUsed && (
            <Text size="sm" c="dimmed" mt="md">
              This account has used its {brand.moneyBack.name}, which is once per account.
            </Text>
          )}
          <Stack mt="xl" gap="sm">
            <RenewalDisclosure />
            <Button size="md" onClick={props.onSubscribe} disabled={props.redirecting} aria-describedby="renewal-disclosure">
              {props.redirecting ? 'Redirecting to checkout...' : 'Subscribe Now'}
            </Button>
            <Button component={Link} to="/account" variant="default">
              Manage Account
            </Button>
          </Stack>
        </Card>
      </Stack>
    </Container>
  );
}

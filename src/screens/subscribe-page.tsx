import { Link } from '@tanstack/react-router';
import { Button, Card, Container, Stack, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { CheckList } from '../components/check-list';
import { PlanPrice } from '../components/plan-price';
import { PageSpinner } from '../components/page-spinner';
import longText from '../components/long-text.module.css';
import { SignInSupport } from '../components/sign-in-support';
import { RenewalDisclosure } from '../components/renewal-disclosure';

const FEATURES = [
  'All server locations worldwide',
  'AES-256 encryption with IKEv2/IPSec',
  'Unlimited bandwidth, no throttling',
  `Up to ${brand.deviceLimit} devices at once`,
  'Strict zero-log policy',
  '24/7 support',
  '30-day money-back guarantee',
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
  | { view: 'signedIn'; email: string; onSubscribe: () => void; redirecting: boolean };

export function SubscribePage(props: SubscribePageProps) {
  if (props.view === 'loading') return <PageSpinner label="Loading your account" />;

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
            {blocked && <SignInSupport message={props.supportMessage!} />}
            <Button size="md" mt="md" onClick={props.onGoogle} loading={props.signingIn} disabled={blocked}>
              Sign in with Google
            </Button>
            <Button size="md" color="dark" onClick={props.onApple} loading={props.signingIn} disabled={blocked}>
              Continue with Apple
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
          <PlanPrice headingOrder={2} badge="Annual" note={brand.price.summary} />
          <CheckList items={FEATURES} />
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

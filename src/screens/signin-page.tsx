import { Link } from '@tanstack/react-router';
import { Anchor, Button, Card, Container, Stack, Text, Title } from '@mantine/core';
import { useHydrated } from '../app/use-hydrated';
import { brand } from '../config/brand';
import { BrandMark } from '../components/brand-mark';
import { SignInSupport } from '../components/sign-in-support';

export interface SignInPageProps {
  onGoogle?: () => void;
  onApple?: () => void;
  /** True while a sign-in runs: the buttons show a loader and take no clicks. */
  busy?: boolean;
  /** After an error trying again cannot fix: its message; the buttons are disabled. */
  supportMessage?: string | null;
  /** The pointer or the focus reached the buttons: load the sign-in code now, so the click opens the popup. */
  onPrepare?: () => void;
}

export function SignInPage({ onGoogle, onApple, busy = false, supportMessage = null, onPrepare }: SignInPageProps) {
  const blocked = supportMessage !== null;
  // Prerendered: until React has taken the page over, the buttons do nothing, and say so.
  const inert = useHydrated() ? undefined : true;
  return (
    <Container size={440} py={{ base: 48, md: 80 }}>
      <Card withBorder shadow="sm" padding="xl" radius="lg">
        <Stack align="center" gap="xs" ta="center">
          <BrandMark size={48} />
          <Title order={1} size="h2" mt="sm">
            Sign in to {brand.productName}
          </Title>
          <Text c="dimmed" size="sm">
            Existing users are signed in automatically. New users get an account created instantly.
          </Text>
        </Stack>
        <Stack mt="xl" gap="sm" onPointerEnter={onPrepare} onFocus={onPrepare}>
          {blocked && <SignInSupport message={supportMessage} />}
          <Button size="md" variant="default" onClick={onGoogle} loading={busy} disabled={blocked} fullWidth aria-disabled={inert}>
            Continue with Google
          </Button>
          <Button size="md" color="dark" onClick={onApple} loading={busy} disabled={blocked} fullWidth aria-disabled={inert}>
            Continue with Apple
          </Button>
        </Stack>
        <Text size="xs" c="dimmed" ta="center" mt="lg">
          By continuing you agree to our{' '}
          <Anchor component={Link} to="/terms" size="xs" underline="always">
            Terms of Service
          </Anchor>{' '}
          and{' '}
          <Anchor component={Link} to="/privacy" size="xs" underline="always">
            Privacy Policy
          </Anchor>
          .
        </Text>
      </Card>
    </Container>
  );
}

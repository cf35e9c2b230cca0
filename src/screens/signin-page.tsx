import { Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useHydrated } from '../components/use-hydrated';
import { brand } from '../config/brand';
import { BrandMark } from '../components/brand-mark';
import { ProviderButtons } from '../components/provider-buttons';
import { SignInSupport } from '../components/sign-in-support';
import { TermsLine } from '../components/terms-line';

export interface SignInPageProps {
  onGoogle?: () => void;
  onApple?: () => void;
  /** True while a sign-in runs: the buttons show a loader and take no clicks. */
  busy?: boolean;
  /** Signed in; the desktop app is being opened: said in words, the buttons rest (issue 22 item 2). */
  openingApp?: boolean;
  /** After an error trying again cannot fix: its message; the buttons are disabled. */
  supportMessage?: string | null;
  /** The pointer or the focus reached the buttons: load the sign-in code now, so the click opens the popup. */
  onPrepare?: () => void;
}

export function SignInPage({ onGoogle, onApple, busy = false, openingApp = false, supportMessage = null, onPrepare }: SignInPageProps) {
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
          <div role="status">
            {openingApp && (
              <Group gap="xs" justify="center">
                <Loader size="xs" aria-hidden="true" />
                <Text size="sm" fw={600}>
                  Signed in. Opening {brand.productName}…
                </Text>
              </Group>
            )}
          </div>
          <ProviderButtons
            googleLabel="Continue with Google"
            appleLabel="Continue with Apple"
            onGoogle={onGoogle}
            onApple={onApple}
            busy={busy && !openingApp}
            disabled={blocked || openingApp}
            notReady={inert}
          />
        </Stack>
        <TermsLine />
      </Card>
    </Container>
  );
}

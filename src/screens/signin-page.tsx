import { Alert, Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useHydrated } from '../components/use-hydrated';
import { brand } from '../config/brand';
import { BrandMark } from '../components/brand-mark';
import { ProviderButtons } from '../components/provider-buttons';
import { SignInSupport } from '../components/sign-in-support';
import { TermsLine } from '../components/terms-line';
import { RECENTLY_DELETED_TITLE } from '../../machines/sign-in-errors';

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
  /** A sign-in refused within the deletion cool-down: its message, said in the card as well as the toast (issue 45, T17). */
  recentlyDeleted?: string | null;
}

export function SignInPage({ onGoogle, onApple, busy = false, openingApp = false, supportMessage = null, onPrepare, recentlyDeleted = null }: SignInPageProps) {
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
          {recentlyDeleted !== null && (
            <Alert color="blue" variant="light" title={RECENTLY_DELETED_TITLE} role="status">
              <Text size="sm">{recentlyDeleted}</Text>
            </Alert>
          )}
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

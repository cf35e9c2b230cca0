import { Link } from '@tanstack/react-router';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Container,
  Group,
  List,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { Subscription } from '../../contract/api';
import { isActive } from '../../machines/subscription-display';
import { autoRenewalText, endDateLabel, formatLongDate, statusBadge, untilText } from './subscription-texts';
import { brand } from '../config/brand';
import { ConfirmDialog } from '../components/confirm-dialog';
import longText from '../components/long-text.module.css';

/** An action asked for in a confirmation dialog: whether the dialog is open, and its confirm button. */
interface ConfirmedAction {
  dialogOpen: boolean;
  onConfirm: () => void;
}

export interface AccountPageProps {
  user: { email: string; provider: 'google' | 'apple' };
  subscription: Subscription | null;
  refreshing: boolean;
  signingOut: boolean;
  onSignOut: () => void;
  onRefresh: () => void;
  onOpenVpnApp: () => void;
  autoRenewal: ConfirmedAction & { cancelling: boolean; onTurnOff: () => void; onDismiss: () => void; onReEnable: () => void };
  deletion: ConfirmedAction & { deleting: boolean; onDelete: () => void; onCancel: () => void };
  /** The desktop devices card, rendered by the route (it owns its own data). */
  devices?: React.ReactNode;
  /** The billing history card and the billing dialogs (issue 20), rendered by the route. */
  billing?: React.ReactNode;
}

const PROVIDER_NAMES = { google: 'Google', apple: 'Apple' } as const;

export function AccountPage(props: AccountPageProps) {
  const { user } = props;
  return (
    <Container size="md" py={{ base: 32, md: 56 }}>
      <Stack gap={4} mb="xl">
        <Title order={1}>My Account</Title>
        <Text c="dimmed">Manage your {brand.productName} subscription and account settings</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="account-info-title">
          <Title order={2} size="h4" id="account-info-title">
            Account Information
          </Title>
          <Stack gap="sm" mt="md">
            <div>
              <Text size="sm" c="dimmed">
                Email
              </Text>
              <Text fw={600} className={longText.wrap}>
                {user.email}
              </Text>
            </div>
            <div>
              <Text size="sm" c="dimmed">
                Sign-in provider
              </Text>
              <Text fw={600}>{PROVIDER_NAMES[user.provider]}</Text>
            </div>
            <Button variant="default" onClick={props.onSignOut} loading={props.signingOut} w="fit-content">
              Sign Out
            </Button>
          </Stack>
        </Card>

        <SubscriptionCard {...props} />

        {props.devices}

        {props.billing}

        <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="help-title">
          <Title order={2} size="h4" id="help-title">
            Need Help?
          </Title>
          <Text c="dimmed" mt="sm">
            Our support team is available 24/7 to help with setup, billing or anything else.
          </Text>
          <Button component={Link} to="/support" variant="light" mt="md">
            Contact Support
          </Button>
        </Card>

        <Card
          withBorder
          padding="lg"
          radius="md"
          component="section"
          aria-labelledby="danger-title"
          style={{ borderColor: 'var(--mantine-color-red-6)' }}
        >
          <Title order={2} size="h4" id="danger-title" c="light-dark(var(--mantine-color-red-9), var(--mantine-color-red-3))">
            Danger Zone
          </Title>
          <Text c="dimmed" mt="sm">
            Permanently delete your account and all of its data.
          </Text>
          <Button color="red.9" mt="md" onClick={props.deletion.onDelete}>
            Delete Account
          </Button>
        </Card>
      </SimpleGrid>

      <DeleteAccountDialog {...props} />
      <TurnOffAutoRenewalDialog {...props} />
    </Container>
  );
}

function SubscriptionCard({ subscription, refreshing, onRefresh, onOpenVpnApp, autoRenewal }: AccountPageProps) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="subscription-title" aria-busy={refreshing}>
      <Group justify="space-between">
        <Title order={2} size="h4" id="subscription-title">
          Subscription Status
        </Title>
        {subscription && <StatusBadge status={subscription.status} />}
      </Group>
      {refreshing ? (
        <Center py="xl" role="status">
          <Loader aria-label="Refreshing subscription" />
        </Center>
      ) : subscription ? (
        <Stack gap="sm" mt="md">
          <div>
            <Text size="sm" c="dimmed">
              Plan
            </Text>
            <Text fw={600}>{subscription.plan || brand.premiumName}</Text>
          </div>
          <Card withBorder padding="sm" radius="sm">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={600}>
                Auto-Renewal
              </Text>
              <Badge color={subscription.cancelAtPeriodEnd ? 'gray' : 'green'} variant="filled">
                {subscription.cancelAtPeriodEnd ? 'Off' : 'On'}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              {autoRenewalText(subscription)}
            </Text>
          </Card>
          {subscription.endDate && (
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {endDateLabel(subscription)}
              </Text>
              <Text size="sm" fw={600}>
                {formatLongDate(subscription.endDate)}
              </Text>
            </Group>
          )}
          {isActive(subscription) ? (
            <Stack gap="sm">
              <Button onClick={onOpenVpnApp}>Open VPN App</Button>
              {subscription.cancelAtPeriodEnd ? (
                <Alert color="yellow" variant="light" title="Auto-renewal is off">
                  <Text size="sm">
                    Your subscription stays active {untilText(subscription.endDate)} and will not renew.
                  </Text>
                  <Button size="xs" variant="default" mt="sm" onClick={autoRenewal.onReEnable}>
                    Re-enable Auto-Renewal
                  </Button>
                </Alert>
              ) : (
                <Button variant="default" onClick={autoRenewal.onTurnOff}>
                  Turn Off Auto-Renewal
                </Button>
              )}
            </Stack>
          ) : (
            <Button component={Link} to="/subscribe">
              Subscribe Now
            </Button>
          )}
          <RefreshStatusButton onRefresh={onRefresh} />
        </Stack>
      ) : (
        <Stack gap="sm" mt="md">
          <Text>No active subscription found</Text>
          <Button component={Link} to="/subscribe" w="fit-content">
            Subscribe Now
          </Button>
          <RefreshStatusButton onRefresh={onRefresh} />
        </Stack>
      )}
    </Card>
  );
}

function RefreshStatusButton({ onRefresh }: { onRefresh: () => void }) {
  return (
    <Button variant="subtle" onClick={onRefresh} w="fit-content">
      Refresh Status
    </Button>
  );
}

function StatusBadge({ status }: { status: string }) {
  const badge = statusBadge(status);
  return (
    <Badge color={badge.color} variant="filled" autoContrast>
      {badge.label}
    </Badge>
  );
}

function TurnOffAutoRenewalDialog({ subscription, autoRenewal }: AccountPageProps) {
  return (
    <ConfirmDialog
      opened={autoRenewal.dialogOpen || autoRenewal.cancelling}
      onClose={autoRenewal.onDismiss}
      title="Turn off auto-renewal?"
    >
      <Text size="sm">
        Your subscription stays active {untilText(subscription?.endDate)}, and you will not be charged again.
        Cancel at least 24 hours before renewal.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={autoRenewal.onDismiss} disabled={autoRenewal.cancelling}>
          Keep Auto-Renewal
        </Button>
        <Button color="red.9" onClick={autoRenewal.onConfirm} disabled={autoRenewal.cancelling}>
          {autoRenewal.cancelling ? 'Processing...' : 'Turn Off Auto-Renewal'}
        </Button>
      </Group>
    </ConfirmDialog>
  );
}

function DeleteAccountDialog({ subscription, deletion, autoRenewal }: AccountPageProps) {
  const live = isActive(subscription);
  // Offered only while it would change something: auto-renewal is still on.
  const offerTurnOff = live && !subscription?.cancelAtPeriodEnd;
  return (
    <ConfirmDialog opened={deletion.dialogOpen} onClose={deletion.onCancel} title="Are you absolutely sure?">
      <Stack gap="sm">
        <Text size="sm">This will permanently delete:</Text>
        <List size="sm">
          <List.Item>Your account and profile information</List.Item>
          <List.Item>All subscription data</List.Item>
          <List.Item>Your preferences and settings</List.Item>
        </List>
        <Text size="sm" fw={600}>
          This action cannot be undone.
        </Text>
        {live && (
          <Alert color="yellow" variant="light" title="Your subscription ends now">
            <Text size="sm">
              Deleting your account ends your {brand.premiumName} subscription immediately. You will not be charged
              again, and the unused time {untilText(subscription?.endDate)} is not refunded.
            </Text>
            {offerTurnOff && (
              <Text size="sm" mt="xs">
                To stop future charges but keep your VPN {untilText(subscription?.endDate)}, turn off auto-renewal
                instead.
              </Text>
            )}
          </Alert>
        )}
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={deletion.onCancel} disabled={deletion.deleting}>
          Cancel
        </Button>
        {offerTurnOff && (
          <Button
            variant="default"
            disabled={deletion.deleting}
            onClick={() => {
              deletion.onCancel();
              autoRenewal.onTurnOff();
            }}
          >
            Turn Off Auto-Renewal instead
          </Button>
        )}
        <Button color="red.9" onClick={deletion.onConfirm} disabled={deletion.deleting}>
          {deletion.deleting ? 'Deleting Account...' : 'Delete Account Permanently'}
        </Button>
      </Group>
    </ConfirmDialog>
  );
}

export function SignInRequired() {
  return (
    <Container size={480} py={{ base: 48, md: 80 }}>
      <Card withBorder padding="xl" radius="lg">
        <Stack align="center" ta="center" gap="sm">
          <Title order={1} size="h2">
            Sign In Required
          </Title>
          <Text c="dimmed">You need to sign in to view your account</Text>
          <Button component={Link} to="/subscribe" mt="sm">
            Sign In
          </Button>
        </Stack>
      </Card>
    </Container>
  );
}

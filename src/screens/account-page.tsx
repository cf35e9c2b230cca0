import { Link } from '@tanstack/react-router';
import {
  Alert,
  Button,
  Card,
  Container,
  List,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { Subscription } from '../../contract/api';
import { isActive } from '../../machines/subscription-display';
import { untilText } from './subscription-texts';
import { SubscriptionCard } from './subscription-card';
import type { AppLinkPhase } from '../components/app-link-status';
import { brand } from '../config/brand';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DialogActions } from '../components/dialog-actions';
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
  /** What Open VPN App is doing (machines/app-link.ts); idle when omitted. */
  vpnAppPhase?: AppLinkPhase;
  autoRenewal: ConfirmedAction & { cancelling: boolean; onTurnOff: () => void; onDismiss: () => void; onReEnable: () => void };
  deletion: ConfirmedAction & { deleting: boolean; onDelete: () => void; onCancel: () => void };
  /** The desktop devices card, rendered by the route (it owns its own data). */
  devices?: React.ReactNode;
  /** "Now", for whether the subscription has ended; tests pin it. */
  now?: Date;
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
              <Text size="sm" c="dimmed">
                Receipts, renewal reminders and security notices are e-mailed to this address.
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

        <SubscriptionCard
          subscription={props.subscription}
          refreshing={props.refreshing}
          onRefresh={props.onRefresh}
          onOpenVpnApp={props.onOpenVpnApp}
          vpnAppPhase={props.vpnAppPhase ?? 'idle'}
          onTurnOff={props.autoRenewal.onTurnOff}
          onReEnable={props.autoRenewal.onReEnable}
          now={props.now}
        />

        {/* Desktop devices belong to a subscription: no card without one. */}
        {props.subscription && props.devices}

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

function TurnOffAutoRenewalDialog({ subscription, autoRenewal }: AccountPageProps) {
  return (
    <ConfirmDialog
      opened={autoRenewal.dialogOpen || autoRenewal.cancelling}
      onClose={autoRenewal.onDismiss}
      title="Turn off auto-renewal?"
    >
      <Text size="sm">
        Your subscription stays active {untilText(subscription?.endDate)}, and you will not be charged again.
      </Text>
      <DialogActions>
        <Button variant="default" onClick={autoRenewal.onDismiss} disabled={autoRenewal.cancelling}>
          Keep Auto-Renewal
        </Button>
        <Button color="red.9" onClick={autoRenewal.onConfirm} disabled={autoRenewal.cancelling}>
          {autoRenewal.cancelling ? 'Processing...' : 'Turn Off Auto-Renewal'}
        </Button>
      </DialogActions>
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
      <DialogActions>
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
      </DialogActions>
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

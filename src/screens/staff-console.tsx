import { useState, type ReactNode } from 'react';
// The console's own Mantine styles (inputs, tables): in its chunk, never on a customer's page.
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Table.layer.css';
import { Anchor, Badge, Box, Button, Card, Container, Group, Loader, Stack, Table, Text, TextInput, Textarea, Title, VisuallyHidden } from '@mantine/core';
import type { BillingItem, StaffCustomer, StaffCustomerSummary } from '../../contract/api';
import { mayUse, REASON_LIMITS, type StaffActionName, type StaffRole } from '../../contract/staff';
import { formatMoney, MONEY_BACK_DAYS } from '../../contract/plans';
import { ConfirmDialog } from '../components/confirm-dialog';
import { SectionCard } from '../components/section-card';
import { formatLongDate } from './subscription-texts';

/** The confirmation of one action, while it is open. */
export interface StaffActionDialogProps {
  action: StaffActionName;
  /** The device's name, for revoke_device. */
  deviceName: string | null;
  reason: string;
  error: string | null;
  calling: boolean;
  onReason: (reason: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
}

export interface StaffConsoleProps {
  role: StaffRole;
  busy: boolean;
  error: string | null;
  query: string;
  customers: StaffCustomerSummary[];
  customer: StaffCustomer | null;
  onSearch: (query: string) => void;
  onOpen: (userId: string) => void;
  onClose: () => void;
  /** Starts an action's confirmation (revoke_device names its device). */
  onAction: (action: StaffActionName, deviceId?: string) => void;
  dialog: StaffActionDialogProps | null;
  /** Every VPN server's state (the status page's board, wired by the console's feature), shown while no customer is open. */
  servers?: ReactNode;
}

/** A device's kind as the customer's own Devices card names it; a WireGuard key has no last-used day. */
const DEVICE_KINDS: Record<StaffCustomer['devices'][number]['kind'], string> = {
  desktop: 'Desktop app',
  wireguard: 'WireGuard configuration',
};

const ACTION_LABELS: Record<StaffActionName, string> = {
  resend_receipt: 'Resend latest receipt',
  revoke_device: 'Revoke device',
  refund: 'Refund',
  disable: 'Disable account',
  enable: 'Enable account',
  delete: 'Delete account',
};

const ACTION_WARNINGS: Record<StaffActionName, string> = {
  resend_receipt: 'The customer gets their latest receipt again by e-mail.',
  revoke_device: 'The device is signed out at once.',
  refund: `The subscription ends now and its payment is refunded (inside ${MONEY_BACK_DAYS} days: the first payment; after: the latest one).`,
  disable: 'The customer is signed out everywhere and cannot sign in until the account is enabled.',
  enable: 'The customer can sign in again. Ended sessions stay ended.',
  delete: 'The account and everything in it are deleted, and the subscription ends at once. This cannot be undone.',
};

const money = (item: Pick<BillingItem, 'amount' | 'currency'>) => formatMoney(item.amount, item.currency);

/** The /staff console (issue 30, item 7): search, results, one customer with a danger zone. Props only. */
export function StaffConsole(props: StaffConsoleProps) {
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between">
          <Title order={1}>Staff console</Title>
          <Badge variant="light" size="lg">
            {props.role === 'admin' ? 'Admin' : 'Support'}
          </Badge>
        </Group>
        <SearchForm query={props.query} busy={props.busy} onSearch={props.onSearch} />
        {props.error && (
          <Text c="red.8" role="alert">
            {props.error}
          </Text>
        )}
        {props.busy && (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden="true" />
            <Text size="sm">Loading…</Text>
          </Group>
        )}
        {props.customer ? (
          <CustomerPage role={props.role} customer={props.customer} onClose={props.onClose} onAction={props.onAction} />
        ) : (
          <>
            <Results customers={props.customers} searched={props.query !== ''} onOpen={props.onOpen} />
            {props.servers && (
              <Section id="staff-servers" title="VPN servers">
                {props.servers}
              </Section>
            )}
          </>
        )}
      </Stack>
      {props.dialog && <ActionDialog {...props.dialog} />}
    </Container>
  );
}

function SearchForm({ query, busy, onSearch }: { query: string; busy: boolean; onSearch: (query: string) => void }) {
  const [value, setValue] = useState(query);
  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim()) onSearch(value.trim());
      }}
    >
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Search customers"
          description="E-mail (or its beginning), account id, payment customer id or receipt number"
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          style={{ flex: '1 1 16rem' }}
        />
        <Button type="submit" loading={busy}>
          Search
        </Button>
      </Group>
    </form>
  );
}

function Results({ customers, searched, onOpen }: { customers: StaffCustomerSummary[]; searched: boolean; onOpen: (userId: string) => void }) {
  if (!searched) return null;
  if (customers.length === 0) return <Text>No customer matches.</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped aria-label="Customers found">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Since</Table.Th>
            <Table.Th>
              <VisuallyHidden>Open</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {customers.map((customer) => (
            <Table.Tr key={customer.id}>
              <Table.Td>{customer.email}</Table.Td>
              <Table.Td>{customer.name}</Table.Td>
              <Table.Td>{customer.status}</Table.Td>
              <Table.Td>{formatLongDate(customer.createdAt)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="light" onClick={() => onOpen(customer.id)} aria-label={`Open ${customer.email}`}>
                  Open
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <SectionCard id={id} title={title}>
      <Box mt="sm">{children}</Box>
    </SectionCard>
  );
}

function CustomerPage({
  role,
  customer,
  onClose,
  onAction,
}: {
  role: StaffRole;
  customer: StaffCustomer;
  onClose: () => void;
  onAction: (action: StaffActionName, deviceId?: string) => void;
}) {
  const { profile, subscription } = customer;
  const dangerous: StaffActionName[] = ['resend_receipt', 'refund', profile.disabled ? 'enable' : 'disable', 'delete'];
  return (
    // Ids and addresses are long words: they wrap rather than run out of a phone's screen.
    <Stack gap="md" style={{ overflowWrap: 'anywhere' }}>
      <Group>
        <Anchor component="button" type="button" onClick={onClose} underline="always">
          Back to results
        </Anchor>
      </Group>
      <Section id="staff-profile" title={profile.email}>
        <Text>Name: {profile.name || '(none)'}</Text>
        <Text>Account id: {profile.id}</Text>
        <Text>Signs in with: {profile.provider === 'apple' ? 'Apple' : 'Google'}</Text>
        <Text>Customer since: {formatLongDate(profile.createdAt)}</Text>
        <Text>Payment customer: {profile.paymentCustomerId ?? '(none)'}</Text>
        {profile.disabled && (
          <Badge color="red" mt="xs">
            Disabled
          </Badge>
        )}
      </Section>
      <Section id="staff-subscription" title="Subscription">
        {subscription ? (
          <Text>
            {subscription.status}
            {subscription.endDate ? `, period ends ${formatLongDate(subscription.endDate)}` : ''}
            {subscription.cancelAtPeriodEnd ? ', auto-renewal off' : ''}
          </Text>
        ) : (
          <Text>No subscription.</Text>
        )}
      </Section>
      <Section id="staff-billing" title="Charges and refunds">
        {customer.billing.length === 0 ? (
          <Text>None.</Text>
        ) : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {customer.billing.map((item) => (
              <Text component="li" key={item.id}>
                {formatLongDate(item.date)}: {item.kind === 'refund' ? 'Refund' : item.description}, {money(item)} ({item.id})
              </Text>
            ))}
          </Stack>
        )}
      </Section>
      <Section id="staff-devices" title="Devices">
        {customer.devices.length === 0 ? (
          <Text>No devices.</Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {customer.devices.map((device) => (
              <Group component="li" key={device.id} justify="space-between" wrap="wrap">
                <Text>
                  {device.name} ({DEVICE_KINDS[device.kind]}), added {formatLongDate(device.createdAt)}
                  {device.lastUsedOn ? `, last used ${formatLongDate(`${device.lastUsedOn}T00:00:00Z`, 'UTC')}` : ''}
                </Text>
                {mayUse(role, 'revoke_device') && (
                  <Button size="xs" variant="default" onClick={() => onAction('revoke_device', device.id)} aria-label={`Revoke ${device.name}`}>
                    Revoke
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )}
      </Section>
      <Section id="staff-emails" title="E-mails sent (last 7 days)">
        {customer.emails.length === 0 ? (
          <Text>None.</Text>
        ) : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {customer.emails.map((email, index) => (
              <Text component="li" key={index}>
                {formatLongDate(`${email.date}T00:00:00Z`, 'UTC')}: {email.kind}
              </Text>
            ))}
          </Stack>
        )}
      </Section>
      <Section id="staff-actions" title="Staff actions on this account">
        {customer.actions.length === 0 ? (
          <Text>None.</Text>
        ) : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {customer.actions.map((row) => (
              <Text component="li" key={row.id}>
                {formatLongDate(row.at)}: {ACTION_LABELS[row.action]} by {row.staffEmail} ({row.role}), {row.outcome}: “{row.reason}”
              </Text>
            ))}
          </Stack>
        )}
      </Section>
      <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="staff-danger" style={{ borderColor: 'var(--mantine-color-red-6)' }}>
        <Title order={2} size="h4" id="staff-danger" c="red.8" mb="sm">
          Danger zone
        </Title>
        <Group gap="sm" wrap="wrap">
          {dangerous
            .filter((action) => mayUse(role, action))
            .map((action) => (
              <Button key={action} variant="outline" color="red.8" onClick={() => onAction(action)}>
                {ACTION_LABELS[action]}
              </Button>
            ))}
        </Group>
        {role === 'support' && (
          <Text size="sm" mt="sm" c="dimmed">
            Refunds, disabling and deleting need the admin role.
          </Text>
        )}
      </Card>
    </Stack>
  );
}

function ActionDialog({ action, deviceName, reason, error, calling, onReason, onConfirm, onCancel }: StaffActionDialogProps) {
  const length = reason.trim().length;
  const valid = length >= REASON_LIMITS.min && length <= REASON_LIMITS.max;
  const title = `${ACTION_LABELS[action]}${deviceName ? `: ${deviceName}` : ''}?`;
  return (
    <ConfirmDialog opened onClose={onCancel} title={title}>
      <Stack>
        <Text size="sm">{ACTION_WARNINGS[action]}</Text>
        <Textarea
          label="Reason"
          description={`Written to the audit trail (${REASON_LIMITS.min} to ${REASON_LIMITS.max} characters). The customer never sees it.`}
          value={reason}
          onChange={(event) => onReason(event.currentTarget.value)}
          required
          rows={3}
          maxLength={REASON_LIMITS.max}
          data-autofocus
        />
        {error && (
          <Text c="red.8" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={calling}>
            Cancel
          </Button>
          <Button color="red.8" onClick={onConfirm} disabled={!valid} loading={calling}>
            Confirm: {ACTION_LABELS[action]}
          </Button>
        </Group>
      </Stack>
    </ConfirmDialog>
  );
}

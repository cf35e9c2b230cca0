import type { ReactNode } from 'react';
import { Anchor, Badge, Box, Button, Group, Stack, Text } from '@mantine/core';
import type { BillingItem, StaffCustomer } from '../../contract/api';
import { formatMoney } from '../../contract/plans';
import { mayUse, type StaffActionName, type StaffRole } from '../../contract/staff';
import { SectionCard } from '../components/section-card';
import { activityText } from './account-activity-card';
import { StaffDangerZone } from './staff-danger-zone';
import { ACTION_LABELS, dayText, DEVICE_KINDS, planLines } from './staff-texts';
import { formatLongDate } from './subscription-texts';

export interface StaffCustomerPageProps {
  role: StaffRole;
  customer: StaffCustomer;
  onClose: () => void;
  /** Starts an action's confirmation (revoke_device names its device). */
  onAction: (action: StaffActionName, deviceId?: string) => void;
}

const money = (item: Pick<BillingItem, 'amount' | 'currency'>) => formatMoney(item.amount, item.currency);

export function StaffSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <SectionCard id={id} title={title}>
      <Box mt="sm">{children}</Box>
    </SectionCard>
  );
}

/** A section's list, or "None." without entries. */
function Entries<T>({ items, empty = 'None.', children }: { items: T[]; empty?: string; children: (item: T, index: number) => ReactNode }) {
  if (items.length === 0) return <Text>{empty}</Text>;
  return (
    <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map(children)}
    </Stack>
  );
}

/** One customer (issue 30 item 7; issue 45 T12): profile, plan, money, devices, e-mails, activity, staff actions. */
export function StaffCustomerPage({ role, customer, onClose, onAction }: StaffCustomerPageProps) {
  const { profile } = customer;
  return (
    // Ids and addresses are long words: they wrap rather than run out of a phone's screen.
    <Stack gap="md" style={{ overflowWrap: 'anywhere' }}>
      <Group>
        <Anchor component="button" type="button" onClick={onClose} underline="always">
          Back to results
        </Anchor>
      </Group>
      <StaffSection id="staff-profile" title={profile.email}>
        <Text>Name: {profile.name || '(none)'}</Text>
        <Text>Account id: {profile.id}</Text>
        <Text>Signs in with: {profile.provider === 'apple' ? 'Apple' : 'Google'}</Text>
        <Text>Customer since: {formatLongDate(profile.createdAt)}</Text>
        <Text>Payment customer: {profile.paymentCustomerId ?? '(none)'}</Text>
        {profile.disabled && (
          <Badge color="red.9" mt="xs">
            Disabled
          </Badge>
        )}
      </StaffSection>
      <StaffSection id="staff-subscription" title="Subscription">
        {planLines(customer).map((line) => (
          <Text key={line}>{line}</Text>
        ))}
      </StaffSection>
      <StaffSection id="staff-billing" title="Charges and refunds">
        <Entries items={customer.billing}>
          {(item) => (
            <Text component="li" key={item.id}>
              {formatLongDate(item.date)}: {item.kind === 'refund' ? 'Refund' : item.description}, {money(item)} ({item.id})
            </Text>
          )}
        </Entries>
      </StaffSection>
      <StaffSection id="staff-devices" title="Devices">
        <Entries items={customer.devices} empty="No devices.">
          {(device) => (
            <Group component="li" key={device.id} justify="space-between" wrap="wrap">
              <Text>
                {device.name} ({DEVICE_KINDS[device.kind]}), added {formatLongDate(device.createdAt)}
                {device.lastUsedOn ? `, last used ${dayText(device.lastUsedOn)}` : ''}
              </Text>
              {mayUse(role, 'revoke_device') && (
                <Button size="xs" variant="default" onClick={() => onAction('revoke_device', device.id)} aria-label={`Revoke ${device.name}`}>
                  Revoke
                </Button>
              )}
            </Group>
          )}
        </Entries>
      </StaffSection>
      <StaffSection id="staff-emails" title="E-mails sent (last 7 days)">
        <Entries items={customer.emails}>
          {(email, index) => (
            <Text component="li" key={index}>
              {dayText(email.date)}: {email.kind}
            </Text>
          )}
        </Entries>
      </StaffSection>
      <StaffSection id="staff-activity" title="Account activity (as the customer sees it)">
        <Entries items={customer.activity}>
          {(item, index) => (
            <Text component="li" key={index}>
              {dayText(item.date)}: {activityText(item)} ({item.by === 'support' ? 'Veil support' : 'the customer'})
            </Text>
          )}
        </Entries>
      </StaffSection>
      <StaffSection id="staff-actions" title="Staff actions on this account">
        <Entries items={customer.actions}>
          {(row) => (
            <Text component="li" key={row.id}>
              {formatLongDate(row.at)}: {ACTION_LABELS[row.action]} by {row.staffEmail} ({row.role}), {row.outcome}: “{row.reason}”
            </Text>
          )}
        </Entries>
      </StaffSection>
      <StaffDangerZone role={role} disabled={profile.disabled} onAction={onAction} />
    </Stack>
  );
}

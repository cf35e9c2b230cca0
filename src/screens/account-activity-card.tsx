import { Button, Group, Stack, Text } from '@mantine/core';
import type { ActivityItem } from '../../contract/account-activity';
import { formatMoney } from '../../contract/plans';
import type { StaffActionName } from '../../contract/staff';
import { ListCard, type ListLoadState } from '../components/list-card';
import longText from '../components/long-text.module.css';
import { formatLongDate } from './subscription-texts';
import cardAction from '../components/card-action.module.css';

export interface AccountActivityCardProps extends ListLoadState {
  items: ActivityItem[];
  /** Older entries wait behind "Show more" (issue 45, T25). */
  hasMore: boolean;
  loadingMore: boolean;
  /** Why the last "Show more" failed; the entries shown stay. */
  moreError: string | null;
  onShowMore: () => void;
}

/** " of " and the amount, formatted as every amount is (formatMoney, contract/plans.ts). */
const amountText = (amount: number | undefined, currency: string | undefined) =>
  amount === undefined || !currency ? '' : ` of ${formatMoney(amount, currency)}`;

const STAFF_ACTION_TEXTS: Record<StaffActionName, string> = {
  resend_receipt: 'Resent your receipt',
  revoke_device: 'Signed out a device',
  refund: 'Refunded a payment',
  disable: 'Disabled your account',
  enable: 'Enabled your account again',
  delete: 'Deleted your account',
};

/** What one entry says; a staff action as "Veil support", never who (the staff console shows it too). */
export function activityText(item: ActivityItem): string {
  const device = item.detail.deviceName ? `: ${item.detail.deviceName}` : '';
  switch (item.kind) {
    case 'signed_in_new_device':
      return `Signed in on a new device${device}`;
    case 'device_added':
      return `Device added${device}`;
    case 'device_revoked':
      return `Device signed out${device}`;
    case 'device_removed':
      return `Device removed${device}`;
    case 'key_replaced':
      return `Key replaced${device}`;
    case 'device_renamed':
      return `Device renamed${device}`;
    case 'auto_renewal_off':
      return 'Auto-renewal turned off';
    case 'auto_renewal_on':
      return 'Auto-renewal turned back on';
    case 'refund':
      return `Refund${amountText(item.detail.amount, item.detail.currency)}`;
    case 'staff_action':
      return `${item.detail.action ? STAFF_ACTION_TEXTS[item.detail.action] : 'Acted on your account'}${device}${amountText(item.detail.amount, item.detail.currency)}`;
  }
}

/** A day as the API keeps it (YYYY-MM-DD, UTC), in en-US long form, not shifted by the time zone. */
const dayText = (day: string) => formatLongDate(`${day}T00:00:00Z`, 'UTC');

/** The account's own history (issue 30, item 6): days only; support's actions as "Veil support"; a page at a time. */
export function AccountActivityCard({ items, hasMore, loadingMore, moreError, onShowMore, ...list }: AccountActivityCardProps) {
  return (
    <ListCard id="account-activity-title" title="Account activity" loadingText="Loading your account activity…" {...list}>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md">
          Nothing yet: new devices, sign-outs, auto-renewal changes, refunds and anything Veil support does appear here.
        </Text>
      ) : (
        <Stack mt="md" gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((item, index) => (
            <Group key={index} justify="space-between" wrap="wrap" component="li" align="flex-start" gap="xs">
              <div style={{ flex: 1, minWidth: '12rem' }}>
                <Text fw={600} className={longText.wrap}>
                  {activityText(item)}
                </Text>
                <Text size="sm" c="dimmed">
                  {item.by === 'support' ? 'Veil support' : 'You'}
                </Text>
              </div>
              <Text size="sm" style={{ flexShrink: 0 }}>
                {dayText(item.date)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      {items.length > 0 && moreError && (
        <Text size="sm" mt="md" role="alert">
          {moreError}
        </Text>
      )}
      {items.length > 0 && hasMore && (
        <Button variant="default" mt="md" onClick={onShowMore} loading={loadingMore} className={cardAction.action}>
          Show more
        </Button>
      )}
    </ListCard>
  );
}

import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { SectionCard } from '../components/section-card';
import type { Subscription } from '../../contract/api';
import { isActive } from '../../machines/subscription-display';
import { brand } from '../config/brand';
import { AppLinkStatus, type AppLinkPhase } from '../components/app-link-status';
import { PastDueNotice } from './past-due-notice';
import { autoRenewalText, endDateLabel, endedText, formatLongDate, hasEnded, payByDate, statusBadge } from './subscription-texts';
import cardAction from '../components/card-action.module.css';

export interface SubscriptionCardProps {
  subscription: Subscription | null;
  refreshing: boolean;
  onRefresh: () => void;
  onOpenVpnApp: () => void;
  vpnAppPhase: AppLinkPhase;
  onTurnOff: () => void;
  onReEnable: () => void;
  /** "Update payment method" for a past-due subscription (the way to pay, first on the card). */
  onUpdatePaymentMethod?: () => void;
  /** The billing page is opening. */
  openingPaymentMethod?: boolean;
  /** "Now", for deciding whether the end date has passed; tests pin it. */
  now?: Date;
}

/**
 * The subscription card tells one story (issue 22): the end date appears once, in the date row; an
 * active subscription with renewal off reads as active until that date; an ended one (a refunded one too)
 * reads "Ended" with no next billing and no renewal box; a past-due one leads with the way to pay and the day
 * by which to do it, and offers no second purchase (issue 34). Refreshing keeps the card's size: the spinner
 * is in the button.
 */
export function SubscriptionCard(props: SubscriptionCardProps) {
  const { subscription, refreshing, onRefresh, onOpenVpnApp, vpnAppPhase, onTurnOff, onReEnable, now } = props;
  return (
    <SectionCard id="subscription-title" title="Subscription Status" busy={refreshing} aside={subscription && <StatusBadge status={subscription.status} />}>
      {subscription ? (
        <Stack gap="sm" mt="md">
          <div>
            <Text size="sm" c="dimmed">
              Plan
            </Text>
            <Text fw={600}>{subscription.plan || brand.premiumName}</Text>
          </div>
          {subscription.status === 'past_due' ? (
            <PastDueNotice
              failedOn={subscription.endDate}
              payBy={payByDate(subscription)}
              unpaid={subscription.unpaid === true}
              opening={props.openingPaymentMethod ?? false}
              onUpdatePaymentMethod={props.onUpdatePaymentMethod ?? (() => {})}
            />
          ) : (
            <>
              <DateRow subscription={subscription} now={now} />
              {hasEnded(subscription, now) ? null : <AutoRenewalBox subscription={subscription} onReEnable={onReEnable} />}
            </>
          )}
          {subscription.status === 'past_due' ? null : isActive(subscription) ? (
            <Stack gap="sm">
              <Button onClick={onOpenVpnApp} className={cardAction.action}>
                Open VPN App
              </Button>
              <AppLinkStatus phase={vpnAppPhase} onRetry={onOpenVpnApp} />
              {!subscription.cancelAtPeriodEnd && (
                <Button variant="default" onClick={onTurnOff} className={cardAction.action}>
                  Turn Off Auto-Renewal
                </Button>
              )}
            </Stack>
          ) : (
            <Button component={Link} to="/subscribe" className={cardAction.action}>
              Subscribe Now
            </Button>
          )}
          <RefreshStatus refreshing={refreshing} onRefresh={onRefresh} />
        </Stack>
      ) : (
        <Stack gap="sm" mt="md">
          <Text>No active subscription found</Text>
          <Button component={Link} to="/subscribe" className={cardAction.action}>
            Subscribe Now
          </Button>
          <RefreshStatus refreshing={refreshing} onRefresh={onRefresh} />
        </Stack>
      )}
    </SectionCard>
  );
}

/** The one place the end date is shown. */
function DateRow({ subscription, now }: { subscription: Subscription; now: Date | undefined }) {
  if (!subscription.endDate) return null;
  if (hasEnded(subscription, now)) {
    return <Text fw={600}>{endedText(subscription, now)}</Text>;
  }
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {endDateLabel(subscription)}
      </Text>
      <Text size="sm" fw={600}>
        {formatLongDate(subscription.endDate)}
      </Text>
    </Group>
  );
}

function AutoRenewalBox({ subscription, onReEnable }: { subscription: Subscription; onReEnable: () => void }) {
  const off = subscription.cancelAtPeriodEnd;
  const live = isActive(subscription);
  return (
    <Card withBorder padding="sm" radius="sm">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          Auto-Renewal
        </Text>
        <Badge color={off ? 'gray' : 'green'} variant="filled">
          {off ? 'Off' : 'On'}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mt={4}>
        {autoRenewalText(subscription)}
      </Text>
      {/* Information where it is useful, not a warning in the confirmation dialog (issue 22 item 10). */}
      {live && !off && (
        <Text size="sm" c="dimmed" mt={4}>
          To stop the next charge, turn it off at least 24 hours before the billing date.
        </Text>
      )}
      {live && off && (
        <>
          <Text size="sm" mt={4}>
            {brand.premiumName} stays active until the date above and will not renew.
          </Text>
          <Button size="xs" variant="default" mt="sm" onClick={onReEnable}>
            Re-enable Auto-Renewal
          </Button>
        </>
      )}
    </Card>
  );
}

/**
 * Refresh keeps the card as it is: a spinner in the button while it runs, then "Status updated" (announced)
 * once the refresh the customer asked for has finished.
 */
function RefreshStatus({ refreshing, onRefresh }: { refreshing: boolean; onRefresh: () => void }) {
  // idle -> asked (clicked) -> running (the refresh started) -> done (it finished): "Status updated".
  const [phase, setPhase] = useState<'idle' | 'asked' | 'running' | 'done'>('idle');
  useEffect(() => {
    if (refreshing && phase === 'asked') setPhase('running');
    if (!refreshing && phase === 'running') setPhase('done');
  }, [refreshing, phase]);
  return (
    <Group gap="sm">
      <Button
        variant="default"
        className={cardAction.action}
        loading={refreshing}
        onClick={() => {
          setPhase('asked');
          onRefresh();
        }}
      >
        Refresh Status
      </Button>
      <Text size="sm" c="dimmed" role="status">
        {phase === 'done' ? 'Status updated' : ''}
      </Text>
    </Group>
  );
}

function StatusBadge({ status }: { status: string }) {
  const badge = statusBadge(status);
  return (
    // Mantine's red 6 under white text is 3.8:1 (axe); its red 9 passes in both schemes.
    <Badge color={badge.color === 'red' ? 'red.9' : badge.color} variant="filled" autoContrast>
      {badge.label}
    </Badge>
  );
}

import { Anchor, Button, Group, Card, Stack, Text, Title } from '@mantine/core';
import type { BillingItem } from '../../contract/api';
import { ListLoadState } from '../components/list-load-state';
import { formatLongDate } from './subscription-texts';

export interface BillingHistoryCardProps {
  items: BillingItem[];
  loading: boolean;
  error: string | null;
  onReload: () => void;
  /** Until when the 30-day money-back guarantee can be claimed (ISO), or null: then no refund is offered. */
  refundableUntil: string | null;
  onRefund: () => void;
}

/** "$100.00" for 10000 usd (amounts are in the currency's smallest unit). */
function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}

/** The account's charges and refunds (issue 20, item 2), each with its receipt; and the money-back offer. */
export function BillingHistoryCard({ items, loading, error, onReload, refundableUntil, onRefund }: BillingHistoryCardProps) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="billing-history-title" aria-busy={loading}>
      <Title order={2} size="h4" id="billing-history-title">
        Billing history
      </Title>
      <ListLoadState loading={loading} error={error} loadingText="Loading your billing history…" onReload={onReload} />
      {loading || error ? null : items.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md">
          No payments yet.
        </Text>
      ) : (
        <Stack mt="md" gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((item) => (
            <Group key={item.id} justify="space-between" wrap="nowrap" component="li" align="flex-start">
              <div style={{ flex: 1, minWidth: 0 }}>
                <Text fw={600}>{item.kind === 'refund' ? 'Refund' : item.description}</Text>
                <Text size="sm" c="dimmed">
                  {formatLongDate(item.date)}
                  {item.receiptUrl && (
                    <>
                      {' · '}
                      <Anchor href={item.receiptUrl} target="_blank" rel="noopener" size="sm" underline="always">
                        Receipt
                      </Anchor>
                    </>
                  )}
                </Text>
              </div>
              <Text fw={600} style={{ flexShrink: 0 }}>
                {item.kind === 'refund' ? '−' : ''}
                {formatAmount(item.amount, item.currency)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      {refundableUntil && (
        <Stack gap="xs" mt="lg">
          <Text size="sm">
            30-day money-back guarantee: until {formatLongDate(refundableUntil)} you can cancel and get your first payment back in full.
          </Text>
          <Button variant="default" color="red.9" w="fit-content" onClick={onRefund}>
            Cancel and refund
          </Button>
        </Stack>
      )}
    </Card>
  );
}

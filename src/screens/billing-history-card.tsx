import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import type { BillingItem } from '../../contract/api';
import { formatMoney } from '../../contract/plans';
import { brand } from '../config/brand';
import { ListCard, type ListLoadState } from '../components/list-card';
import { formatLongDate } from './subscription-texts';

export interface BillingHistoryCardProps extends ListLoadState {
  items: BillingItem[];
  /** Until when the money-back guarantee can be claimed (ISO), or null: then no refund is offered. */
  refundableUntil: string | null;
  onRefund: () => void;
}


/** The account's charges and refunds (issue 20, item 2), each with its receipt; and the money-back offer. */
export function BillingHistoryCard({ items, refundableUntil, onRefund, ...list }: BillingHistoryCardProps) {
  return (
    <ListCard
      id="billing-history-title"
      title="Billing history"
      loadingText="Loading your billing history…"
      {...list}
      after={
        refundableUntil && (
          <Stack gap="xs" mt="lg">
            <Text size="sm">
              {brand.moneyBack.name}: until {formatLongDate(refundableUntil)} you can cancel and get your first payment back in full.
            </Text>
            <Button variant="default" color="red.9" w="fit-content" onClick={onRefund}>
              Cancel and refund
            </Button>
          </Stack>
        )
      }
    >
      {items.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md">
          No payments yet.
        </Text>
      ) : (
        <Stack mt="md" gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((item) => (
            <Group key={item.id} justify="space-between" wrap="nowrap" component="li" align="flex-start">
              <div style={{ flex: 1, minWidth: 0 }}>
                {/* A refund's description says its state (issue 34): Refund, Refund in progress, Refund failed: …. */}
                <Text fw={600}>{item.description}</Text>
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
                {formatMoney(item.amount, item.currency)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </ListCard>
  );
}

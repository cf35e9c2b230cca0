import { Badge, Group, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';

/** The plan's name, a badge and its price: the top of every pricing card. */
export function PlanPrice({ headingOrder, badge, note }: { headingOrder: 2 | 3; badge: string; note: string }) {
  return (
    <>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={headingOrder} size="h3">
            {brand.price.tierName}
          </Title>
          <Text c="dimmed" size="sm">
            {brand.price.planName}
          </Text>
        </div>
        <Badge variant="light">{badge}</Badge>
      </Group>
      <Group align="baseline" gap={6} mt="lg">
        <Text fz={44} fw={800} lh={1}>
          ${brand.price.amountUsd}
        </Text>
        <Text c="dimmed">per year</Text>
      </Group>
      <Text c="dimmed" size="sm" mt={4}>
        {note}
      </Text>
    </>
  );
}

import type { ReactNode } from 'react';
import { Card, Group, Title } from '@mantine/core';

interface SectionCardProps {
  /** The heading's id: the card is a region labelled by its heading. */
  id: string;
  title: ReactNode;
  /** Set while the card reloads what it shows (aria-busy). */
  busy?: boolean;
  /** Beside the heading, at the card's far edge (a status badge). */
  aside?: ReactNode;
  children: ReactNode;
}

/** One card of a page (the account's, the staff console's): a section labelled by its level-2 heading. */
export function SectionCard({ id, title, busy, aside, children }: SectionCardProps) {
  const heading = (
    <Title order={2} size="h4" id={id}>
      {title}
    </Title>
  );
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby={id} aria-busy={busy}>
      {aside ? (
        <Group justify="space-between">
          {heading}
          {aside}
        </Group>
      ) : (
        heading
      )}
      {children}
    </Card>
  );
}

import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Button, Card, Container, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Icon } from './icons';

export interface ResultCardProps {
  /** Green check after a payment, gray alert after a cancelled one. */
  tone: 'success' | 'cancelled';
  title: ReactNode;
  lead: ReactNode;
  /** The page's own buttons; "Back to Website" always closes the row. */
  actions: ReactNode;
  children: ReactNode;
}

/** The card both checkout return pages (/success, /cancel) share: icon, heading, body, a row of buttons. */
export function ResultCard({ tone, title, lead, actions, children }: ResultCardProps) {
  return (
    <Container size="sm" py={{ base: 48, md: 80 }}>
      <Card withBorder shadow="sm" padding="xl" radius="lg">
        <Stack align="center" ta="center" gap="sm">
          {tone === 'success' ? (
            <ThemeIcon size={64} radius="xl" color="green">
              <Icon name="check" size={36} />
            </ThemeIcon>
          ) : (
            <ThemeIcon size={64} radius="xl" color="gray" variant="light">
              <Icon name="alert" size={34} />
            </ThemeIcon>
          )}
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed">{lead}</Text>
        </Stack>
        {children}
        <Group mt="xl" grow preventGrowOverflow={false} wrap="wrap">
          {actions}
          <Button component={Link} to="/" variant="subtle">
            Back to Website
          </Button>
        </Group>
      </Card>
    </Container>
  );
}

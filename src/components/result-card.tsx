import type { ReactNode } from 'react';
import { Button, Card, Container, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Icon } from './icons';
import { SiteLink } from './site-link';
import stack from './button-stack.module.css';
import classes from './result-card.module.css';

export interface ResultCardProps {
  /** Green check after a payment, gray alert after a cancelled one. */
  tone: 'success' | 'cancelled';
  title: ReactNode;
  lead: ReactNode;
  /** The page's own buttons; "Back to Website" always closes the row. */
  actions: ReactNode;
  children: ReactNode;
  /** Under the buttons: what the app link is doing (components/app-link-status.tsx). */
  after?: ReactNode;
}

/** The card both checkout return pages (/success, /cancel) share: icon, heading, body, a row of buttons. */
export function ResultCard({ tone, title, lead, actions, children, after }: ResultCardProps) {
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
        <div className={`${stack.buttons} ${classes.actions}`}>
          {actions}
          <Button component={SiteLink} to="/" variant="subtle">
            Back to Website
          </Button>
        </div>
        {after}
      </Card>
    </Container>
  );
}

import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Button, Card, Container, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { CheckList } from '../components/check-list';
import { Icon } from '../components/icons';

const NEXT_STEPS = [
  `Download and install ${brand.productName} on your devices`,
  'Open the app and sign in with the same account',
  'Connect to any server location with one tap',
  `Protect up to ${brand.deviceLimit} devices with your subscription`,
];

/** `status` lets the wiring show the activation progress above the page's fixed content. */
export function SuccessPage({ status }: { status?: ReactNode }) {
  return (
    <Container size="sm" py={{ base: 48, md: 80 }}>
      <Card withBorder shadow="sm" padding="xl" radius="lg">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={64} radius="xl" color="green">
            <Icon name="check" size={36} />
          </ThemeIcon>
          <Title order={1} size="h2">
            Welcome to {brand.premiumName}!
          </Title>
          <Text c="dimmed">Your payment was successful. Thank you for choosing {brand.productName}.</Text>
        </Stack>
        {status}
        <Title order={2} size="h4" mt="xl">
          What&apos;s Next
        </Title>
        <CheckList items={NEXT_STEPS} />
        <Group mt="xl" grow preventGrowOverflow={false} wrap="wrap">
          <Button component="a" href={brand.deepLinks.success}>
            Open Desktop App
          </Button>
          <Button component={Link} to="/account" variant="default">
            Manage Account
          </Button>
          <Button component={Link} to="/" variant="subtle">
            Back to Website
          </Button>
        </Group>
      </Card>
    </Container>
  );
}

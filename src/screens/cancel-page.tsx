import { Link } from '@tanstack/react-router';
import { Button, Card, Container, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { CheckList } from '../components/check-list';
import { Icon } from '../components/icons';

const REASONS = [
  'Access to all server locations worldwide',
  'Strong AES-256 encryption',
  'Unlimited bandwidth with no throttling',
];

export function CancelPage() {
  return (
    <Container size="sm" py={{ base: 48, md: 80 }}>
      <Card withBorder shadow="sm" padding="xl" radius="lg">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={64} radius="xl" color="gray" variant="light">
            <Icon name="alert" size={34} />
          </ThemeIcon>
          <Title order={1} size="h2">
            Payment Cancelled
          </Title>
          <Text c="dimmed">No charges have been made to your account</Text>
        </Stack>
        <Title order={2} size="h4" mt="xl">
          Why subscribe to {brand.premiumName}?
        </Title>
        <CheckList items={REASONS} color="veil" />
        <Text fw={600} mt="lg">
          {brand.price.summary}
        </Text>
        <Group mt="xl" grow preventGrowOverflow={false} wrap="wrap">
          <Button component={Link} to="/subscribe">
            Try Again
          </Button>
          <Button component="a" href={brand.deepLinks.cancel} variant="default">
            Return to App
          </Button>
          <Button component={Link} to="/" variant="subtle">
            Back to Website
          </Button>
        </Group>
      </Card>
    </Container>
  );
}

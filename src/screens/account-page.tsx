import { Link } from '@tanstack/react-router';
import { Button, Card, Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';

/** The account page's frame: its title, then the cards (src/features/account/) in a grid, in the given order. */
export function AccountLayout({ children }: { children: React.ReactNode }) {
  return (
    <Container size="md" py={{ base: 32, md: 56 }}>
      <Stack gap={4} mb="xl">
        <Title order={1}>My Account</Title>
        <Text c="dimmed">Manage your {brand.productName} subscription and account settings</Text>
      </Stack>
      {/* Each card as tall as what it says: a short card beside a long one is not stretched (issue 34). */}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
        {children}
      </SimpleGrid>
    </Container>
  );
}

export function SignInRequired() {
  return (
    <Container size={480} py={{ base: 48, md: 80 }}>
      <Card withBorder padding="xl" radius="lg">
        <Stack align="center" ta="center" gap="sm">
          <Title order={1} size="h2">
            Sign In Required
          </Title>
          <Text c="dimmed">You need to sign in to view your account</Text>
          <Button component={Link} to="/subscribe" mt="sm">
            Sign In
          </Button>
        </Stack>
      </Card>
    </Container>
  );
}

import { Link } from '@tanstack/react-router';
import { Button, Card, Text, Title } from '@mantine/core';

export function HelpCard() {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="help-title">
      <Title order={2} size="h4" id="help-title">
        Need Help?
      </Title>
      <Text c="dimmed" mt="sm">
        Our support team is available 24/7 to help with setup, billing or anything else.
      </Text>
      <Button component={Link} to="/support" variant="light" mt="md">
        Contact Support
      </Button>
    </Card>
  );
}

import { Link } from '@tanstack/react-router';
import { Button, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { CheckList } from '../components/check-list';
import { ResultCard } from '../components/result-card';

const REASONS = [
  'Access to all server locations worldwide',
  'Strong AES-256 encryption',
  'Unlimited bandwidth with no throttling',
];

export function CancelPage() {
  return (
    <ResultCard
      tone="cancelled"
      title="Payment Cancelled"
      lead="No charges have been made to your account"
      actions={
        <>
          <Button component={Link} to="/subscribe">
            Try Again
          </Button>
          <Button component="a" href={brand.deepLinks.cancel} variant="default">
            Return to App
          </Button>
        </>
      }
    >
      <Title order={2} size="h4" mt="xl">
        Why subscribe to {brand.premiumName}?
      </Title>
      <CheckList items={REASONS} color="veil" />
      <Text fw={600} mt="lg">
        {brand.price.summary}
      </Text>
    </ResultCard>
  );
}

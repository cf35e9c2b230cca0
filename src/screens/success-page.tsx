import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Button, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { CheckList } from '../components/check-list';
import { ResultCard } from '../components/result-card';

const NEXT_STEPS = [
  `Download and install ${brand.productName} on your devices`,
  'Open the app and sign in with the same account',
  'Connect to any server location with one tap',
  `Protect up to ${brand.deviceLimit} devices with your subscription`,
];

/** `status` lets the wiring show the activation progress above the page's fixed content. */
export function SuccessPage({ status }: { status?: ReactNode }) {
  return (
    <ResultCard
      tone="success"
      title={<>Welcome to {brand.premiumName}!</>}
      lead={<>Your payment was successful. Thank you for choosing {brand.productName}.</>}
      actions={
        <>
          <Button component="a" href={brand.deepLinks.success}>
            Open Desktop App
          </Button>
          <Button component={Link} to="/account" variant="default">
            Manage Account
          </Button>
        </>
      }
    >
      {status}
      <Title order={2} size="h4" mt="xl">
        What&apos;s Next
      </Title>
      <CheckList items={NEXT_STEPS} />
    </ResultCard>
  );
}

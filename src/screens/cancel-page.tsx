import { Button, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { ENCRYPTION_FEATURE } from '../content/encryption';
import type { Platform } from '../config/platforms';
import { AppLinkButton, type AppLink } from '../components/app-link-button';
import { AppLinkStatus } from '../components/app-link-status';
import { CheckList } from '../components/check-list';
import { ResultCard } from '../components/result-card';
import { SiteLink } from '../components/site-link';

const REASONS = [
  'Access to all server locations worldwide',
  ENCRYPTION_FEATURE,
  'Unlimited bandwidth with no throttling',
];

export interface CancelPageProps {
  /** What Return to App is doing; without it the button is a plain link (before hydration). */
  appLink?: AppLink;
  /**
   * A phone or tablet: no desktop app's link, and no app download either: someone who just did not pay is
   * offered to try again, not an app they cannot use without a subscription (issue 34).
   */
  phone?: Platform | null;
}

export function CancelPage({ appLink, phone }: CancelPageProps = {}) {
  return (
    <ResultCard
      tone="cancelled"
      title="Payment Cancelled"
      lead="No charges have been made to your account"
      actions={
        <>
          <Button component={SiteLink} to="/subscribe">
            Try Again
          </Button>
          {!phone && <AppLinkButton href={brand.deepLinks.cancel} label="Return to App" appLink={appLink} variant="default" />}
        </>
      }
      after={appLink && !phone ? <AppLinkStatus phase={appLink.phase} onRetry={appLink.onOpen} /> : null}
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

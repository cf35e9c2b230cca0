import type { ReactNode } from 'react';
import { Button, Title } from '@mantine/core';
import { brand } from '../config/brand';
import type { Platform } from '../config/platforms';
import { AppLinkButton, type AppLink } from '../components/app-link-button';
import { AppLinkStatus } from '../components/app-link-status';
import { StepList } from '../components/check-list';
import { ResultCard } from '../components/result-card';
import { SiteLink } from '../components/site-link';

const NEXT_STEPS = [
  `Download and install ${brand.productName} on your devices`,
  'Open the app and sign in with the same account',
  'Connect to any server location with one tap',
  `Protect up to ${brand.deviceLimit} devices with your subscription`,
];

export interface SuccessPageProps {
  /** The activation progress, shown above the page's fixed content. */
  status?: ReactNode;
  /** What Open Desktop App is doing; without it the button is a plain link (before hydration). */
  appLink?: AppLink;
  /** A phone or tablet: lead with what works there (issue 22 item 8), its store download, no desktop link. */
  phone?: Platform | null;
  /**
   * A signed-in visitor, whose payment the page can speak of. Anyone else (a link opened in another
   * browser, a bookmark) is not told a payment succeeded that the page knows nothing about (issue 34).
   */
  signedIn?: boolean;
}

export function SuccessPage({ status, appLink, phone, signedIn = false }: SuccessPageProps) {
  return (
    <ResultCard
      tone="success"
      title={<>Welcome to {brand.premiumName}!</>}
      lead={
        signedIn ? (
          <>Your payment was successful. Thank you for choosing {brand.productName}.</>
        ) : (
          <>Thank you for choosing {brand.productName}. Sign in with the account you paid with to see your subscription.</>
        )
      }
      actions={
        phone ? (
          <>
            <Button component={SiteLink} to="/account">
              Manage Account
            </Button>
            <Button component="a" href={phone.url} variant="default">
              Download for {phone.name}
            </Button>
          </>
        ) : (
          <>
            <AppLinkButton href={brand.deepLinks.success} label="Open Desktop App" appLink={appLink} />
            <Button component={SiteLink} to="/account" variant="default">
              Manage Account
            </Button>
          </>
        )
      }
      after={appLink && !phone ? <AppLinkStatus phase={appLink.phase} onRetry={appLink.onOpen} /> : null}
    >
      {status}
      <Title order={2} size="h4" mt="xl">
        What&apos;s Next
      </Title>
      <StepList items={NEXT_STEPS} />
    </ResultCard>
  );
}

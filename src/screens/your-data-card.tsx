import { Alert, Button, Group, Text } from '@mantine/core';
import { SectionCard } from '../components/section-card';

export interface YourDataCardProps {
  /** Preparing the file, or signing in again. */
  busy: boolean;
  /** The API wants a sign-in within the last 10 minutes. */
  signInNeeded: boolean;
  error: string | null;
  onDownload: () => void;
  onSignInAgain: () => void;
  onCancel: () => void;
}

/** What the file holds, in one sentence (issue 31, item 4). */
export const YOUR_DATA_TEXT =
  'A file (JSON) with everything we keep about your account: your profile, devices and sign-ins, subscription, payments and refunds, account activity and the e-mails we sent you, each with why and for how long we keep it.';

/** "Download your data": the customer's own copy of what the privacy policy's table lists. */
export function YourDataCard({ busy, signInNeeded, error, onDownload, onSignInAgain, onCancel }: YourDataCardProps) {
  return (
    <SectionCard id="your-data-title" title="Your data">
      <Text c="dimmed" mt="sm">
        {YOUR_DATA_TEXT}
      </Text>
      {error && (
        <Alert color="red" mt="md" role="alert">
          {error}
        </Alert>
      )}
      {signInNeeded ? (
        <>
          <Text mt="md">For your security, please sign in again to download your data.</Text>
          <Group mt="sm">
            <Button onClick={onSignInAgain} loading={busy}>
              Sign In Again
            </Button>
            <Button variant="default" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
          </Group>
        </>
      ) : (
        <Button mt="md" variant="default" onClick={onDownload} loading={busy}>
          Download your data
        </Button>
      )}
    </SectionCard>
  );
}

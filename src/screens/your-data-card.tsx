import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { SectionCard } from '../components/section-card';
import cardAction from '../components/card-action.module.css';

export interface YourDataCardProps {
  /** Preparing the file, or signing in again. */
  busy: boolean;
  /** The API wants a sign-in within the last 10 minutes. */
  signInNeeded: boolean;
  error: string | null;
  /** The copy just saved: its file's name and its summary in a few sentences (issue 45, T16). */
  saved: { fileName: string; summary: string[] } | null;
  onDownload: () => void;
  onSignInAgain: () => void;
  onCancel: () => void;
}

/** What the file holds, in one sentence (issue 31, item 4), and how it reads (issue 45, T16). */
export const YOUR_DATA_TEXT =
  'A file (JSON) with everything we keep about your account: your profile, devices and sign-ins, subscription, payments and refunds, account activity and the e-mails we sent you, each with why and for how long we keep it. It opens with a summary in plain words; times are in ISO 8601 (UTC) and amounts name their currency.';

/** "Download your data": the customer's own copy of what the privacy policy's table lists. */
export function YourDataCard({ busy, signInNeeded, error, saved, onDownload, onSignInAgain, onCancel }: YourDataCardProps) {
  return (
    <SectionCard id="your-data-title" title="Your data">
      <Text c="dimmed" mt="sm">
        {YOUR_DATA_TEXT}
      </Text>
      {saved && (
        <Stack gap={4} mt="md" role="status">
          <Text size="sm" fw={600}>
            Downloaded {saved.fileName}. In short:
          </Text>
          <List size="sm" spacing={2}>
            {saved.summary.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        </Stack>
      )}
      {error && (
        <Alert color="red" mt="md" role="alert">
          {error}
        </Alert>
      )}
      {signInNeeded ? (
        <>
          <Text mt="md">For your security, please sign in again to download your data.</Text>
          <Group mt="sm">
            <Button onClick={onSignInAgain} loading={busy} className={cardAction.action}>
              Sign In Again
            </Button>
            <Button variant="default" onClick={onCancel} disabled={busy} className={cardAction.action}>
              Cancel
            </Button>
          </Group>
        </>
      ) : (
        <Button mt="md" variant="default" onClick={onDownload} loading={busy} className={cardAction.action}>
          Download your data
        </Button>
      )}
    </SectionCard>
  );
}

import { Button, Card, Stack, Text, Title } from '@mantine/core';
import longText from '../components/long-text.module.css';

export interface AccountInformationCardProps {
  user: { email: string; provider: 'google' | 'apple' };
  signingOut: boolean;
  onSignOut: () => void;
}

const PROVIDER_NAMES = { google: 'Google', apple: 'Apple' } as const;

/** Who is signed in, with which provider, where the e-mails go; and Sign Out. */
export function AccountInformationCard({ user, signingOut, onSignOut }: AccountInformationCardProps) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="account-info-title">
      <Title order={2} size="h4" id="account-info-title">
        Account Information
      </Title>
      <Stack gap="sm" mt="md">
        <div>
          <Text size="sm" c="dimmed">
            Email
          </Text>
          <Text fw={600} className={longText.wrap}>
            {user.email}
          </Text>
          <Text size="sm" c="dimmed">
            Receipts, renewal reminders and security notices are e-mailed to this address.
          </Text>
        </div>
        <div>
          <Text size="sm" c="dimmed">
            Sign-in provider
          </Text>
          <Text fw={600}>{PROVIDER_NAMES[user.provider]}</Text>
        </div>
        <Button variant="default" onClick={onSignOut} loading={signingOut} w="fit-content">
          Sign Out
        </Button>
      </Stack>
    </Card>
  );
}

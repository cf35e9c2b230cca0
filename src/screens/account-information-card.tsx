import { Button, Stack, Text } from '@mantine/core';
import { SectionCard } from '../components/section-card';
import longText from '../components/long-text.module.css';
import cardAction from '../components/card-action.module.css';

export interface AccountInformationCardProps {
  user: { email: string; provider: 'google' | 'apple' };
  signingOut: boolean;
  onSignOut: () => void;
}

const PROVIDER_NAMES = { google: 'Google', apple: 'Apple' } as const;

/** Who is signed in, with which provider, where the e-mails go; and Sign Out. */
export function AccountInformationCard({ user, signingOut, onSignOut }: AccountInformationCardProps) {
  return (
    <SectionCard id="account-info-title" title="Account Information">
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
        <Button variant="default" onClick={onSignOut} loading={signingOut} className={cardAction.action}>
          Sign Out
        </Button>
      </Stack>
    </SectionCard>
  );
}

import { Anchor, Text } from '@mantine/core';
import { SiteLink } from './site-link';

/** "By continuing you agree to our Terms of Service and Privacy Policy.": under every pair of sign-in buttons. */
export function TermsLine() {
  return (
    <Text size="xs" c="dimmed" ta="center" mt="lg">
      By continuing you agree to our{' '}
      <Anchor component={SiteLink} to="/terms" size="xs" underline="always">
        Terms of Service
      </Anchor>{' '}
      and{' '}
      <Anchor component={SiteLink} to="/privacy" size="xs" underline="always">
        Privacy Policy
      </Anchor>
      .
    </Text>
  );
}

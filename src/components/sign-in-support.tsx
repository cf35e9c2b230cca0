import { Alert, Anchor, Text } from '@mantine/core';
import { SiteLink } from './site-link';

/**
 * Shown instead of usable sign-in buttons after an error that trying again cannot fix (the catalogue's
 * "no retry": unauthorized domain, user disabled, operation not allowed): say so, and where to get help.
 */
export function SignInSupport({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" title="Sign-in is not possible right now" role="alert">
      <Text size="sm">{message}</Text>
      <Anchor component={SiteLink} to="/support" size="sm" fw={600} underline="always" mt="xs" display="inline-block">
        Contact Support
      </Anchor>
    </Alert>
  );
}

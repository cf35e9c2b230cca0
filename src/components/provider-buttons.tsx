import { Button } from '@mantine/core';
import { AppleMark, GoogleMark } from './provider-marks';

export interface ProviderButtonsProps {
  /** The page's own wording, one verb for both (the spec names "Sign in with Google" on /subscribe, "Continue with Google" on /signin). */
  googleLabel: string;
  appleLabel: string;
  onGoogle?: () => void;
  onApple?: () => void;
  /** A sign-in runs: both show a loader and take no clicks. */
  busy?: boolean;
  disabled?: boolean;
  /** Prerendered and not yet hydrated: the buttons do nothing yet, and say so. */
  notReady?: boolean;
}

/**
 * The one pair of sign-in buttons (issue 22 item 4): the same outlined look for both, each with its mark,
 * readable on a light and on a dark card (a black Apple button vanished on the dark one).
 */
export function ProviderButtons({ googleLabel, appleLabel, onGoogle, onApple, busy, disabled, notReady }: ProviderButtonsProps) {
  const common = { size: 'md', variant: 'default', loading: busy, disabled, fullWidth: true, 'aria-disabled': notReady || undefined } as const;
  return (
    <>
      <Button {...common} onClick={onGoogle} leftSection={<GoogleMark />}>
        {googleLabel}
      </Button>
      <Button {...common} onClick={onApple} leftSection={<AppleMark />}>
        {appleLabel}
      </Button>
    </>
  );
}

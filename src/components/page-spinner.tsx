import { Center, Loader } from '@mantine/core';

/** Shown while authentication state loads (spec §2: guarded pages show a spinner). */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py={120} role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}

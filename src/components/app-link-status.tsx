import { Anchor, Button, Group, Loader, Text } from '@mantine/core';
import { brand } from '../config/brand';
import { useDownloadHref } from './use-download-href';

export type AppLinkPhase = 'idle' | 'opening' | 'notOpened';

/**
 * What happens after "Open VPN App" (and the like), said under the button (issue 22 item 2): "Opening
 * Veil VPN…" while the link opens; "Didn't open? Download Veil VPN" (for the visitor's system) and Try
 * opening again when the page is still in front after about 1.5 s. The live region is always there, so screen
 * readers hear each change.
 */
export function AppLinkStatus({ phase, onRetry }: { phase: AppLinkPhase; onRetry: () => void }) {
  const downloadHref = useDownloadHref();
  return (
    // Its own margin only when it says something, so an idle status takes no room.
    <div role="status" style={phase === 'idle' ? undefined : { marginTop: 'var(--mantine-spacing-xs)' }}>
      {phase === 'opening' && (
        <Group gap="xs" justify="center">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm">Opening {brand.productName}…</Text>
        </Group>
      )}
      {phase === 'notOpened' && (
        <Group gap="xs" justify="center">
          <Text size="sm">
            Didn&apos;t open?{' '}
            <Anchor href={downloadHref} size="sm" fw={600} underline="always">
              Download {brand.productName}
            </Anchor>
          </Text>
          <Button size="compact-sm" variant="subtle" onClick={onRetry}>
            Try opening again
          </Button>
        </Group>
      )}
    </div>
  );
}

import { Button, Group, Loader, Stack, Text } from '@mantine/core';

/**
 * What a card that loads its own list shows before the list: a spinner with `loadingText` while it loads,
 * or the failure's message with "Try again". Null when the list itself is to be shown.
 */
export function ListLoadState({
  loading,
  error,
  loadingText,
  onReload,
}: {
  loading: boolean;
  error: string | null;
  loadingText: string;
  onReload: () => void;
}) {
  if (loading) {
    return (
      <Group mt="md" gap="sm" role="status">
        <Loader size="sm" aria-hidden="true" />
        <Text size="sm">{loadingText}</Text>
      </Group>
    );
  }
  if (error) {
    return (
      <Stack mt="md" gap="xs">
        <Text size="sm">{error}</Text>
        <Button size="xs" variant="default" w="fit-content" onClick={onReload}>
          Try again
        </Button>
      </Stack>
    );
  }
  return null;
}

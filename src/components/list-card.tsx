import type { ReactNode } from 'react';
import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { SectionCard } from './section-card';
import cardAction from './card-action.module.css';

/** What a card that loads its own list is given by its page: the list's state, and how to load it again. */
export interface ListLoadState {
  loading: boolean;
  error: string | null;
  /** "Try again" after a failure. */
  onReload: () => void;
}

interface ListCardProps extends ListLoadState {
  /** The heading's id: the card is a region labelled by its heading. */
  id: string;
  title: string;
  /** Beside the spinner while the list loads. */
  loadingText: string;
  /** The list, or what the card says when it is empty: shown once it has loaded. */
  children: ReactNode;
  /** Under the list, whether or not it has loaded. */
  after?: ReactNode;
}

/**
 * An account card that loads its own list (Desktop Devices, Billing history): its heading, then a spinner with
 * `loadingText` while the list loads, the failure's message with "Try again", or the list itself.
 */
export function ListCard({ id, title, loading, error, loadingText, onReload, children, after }: ListCardProps) {
  return (
    <SectionCard id={id} title={title} busy={loading}>
      {loading ? (
        <Group mt="md" gap="sm" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text size="sm">{loadingText}</Text>
        </Group>
      ) : error ? (
        <Stack mt="md" gap="xs">
          <Text size="sm">{error}</Text>
          <Button variant="default" onClick={onReload} className={cardAction.action}>
            Try again
          </Button>
        </Stack>
      ) : (
        children
      )}
      {after}
    </SectionCard>
  );
}

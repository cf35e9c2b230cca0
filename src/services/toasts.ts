/**
 * Toasts (Mantine notifications). Nothing of them loads until the first toast: most visits show none,
 * and the container would bring Mantine itself to the home page (docs/performance.md). The first
 * `showToast` asks the container to mount (src/app/frame/lazy-notifications.tsx); Mantine's store keeps
 * the toast until the container has arrived to draw it.
 */
import type { ToastParams } from '../../machines/types';

export type { ToastParams };

let toastRequested = false;
const firstToastListeners = new Set<() => void>();

/** Whether any toast has been shown yet: the container mounts from then on. */
export function toastContainerNeeded(): boolean {
  return toastRequested;
}

/** Calls `listener` when the first toast is shown; returns the unsubscribe function. */
export function onToastContainerNeeded(listener: () => void): () => void {
  firstToastListeners.add(listener);
  return () => firstToastListeners.delete(listener);
}

export async function showToast({ title, message, color, autoClose }: ToastParams): Promise<void> {
  if (!toastRequested) {
    toastRequested = true;
    for (const listener of firstToastListeners) listener();
  }
  const { notifications } = await import('@mantine/notifications');
  notifications.show({
    title,
    message,
    color,
    autoClose,
    withBorder: true,
    // Mantine's close button has no accessible name of its own (axe: button-name).
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}

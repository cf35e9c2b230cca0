/**
 * Toasts (Mantine notifications). The notifications package is loaded on first use, not on first paint:
 * the public pages show no toast until someone acts, and it keeps ~11 KB off the home page's first load.
 */
import type { ToastParams } from '../../machines/types';

export type { ToastParams };

export async function showToast({ title, message, color, autoClose }: ToastParams): Promise<void> {
  const { notifications } = await import('@mantine/notifications');
  notifications.show({ title, message, color, autoClose, withBorder: true });
}

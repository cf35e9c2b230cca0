/**
 * Toasts (Mantine notifications). The notifications package is loaded on first use, not on first paint:
 * the public pages show no toast until someone acts, and it keeps ~11 KB off the home page's first load.
 */
export interface ToastParams {
  title: string;
  message: string;
  /** 'red' for the spec's destructive toasts, 'green' for confirmations. */
  color?: 'red' | 'green' | 'yellow' | 'blue';
  /** Milliseconds; the default is Mantine's. */
  autoClose?: number;
}

export async function showToast({ title, message, color, autoClose }: ToastParams): Promise<void> {
  const { notifications } = await import('@mantine/notifications');
  notifications.show({ title, message, color, autoClose, withBorder: true });
}

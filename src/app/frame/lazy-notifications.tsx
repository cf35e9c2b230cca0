import { Suspense, lazy, useSyncExternalStore } from 'react';
import { onToastContainerNeeded, toastContainerNeeded } from '../../services/toasts';

const ToastContainer = lazy(() => import('../../components/toast-container').then((module) => ({ default: module.ToastContainer })));

/** Mounts the toast container with the first toast, so neither it nor Mantine loads for visits without one. */
export function LazyNotifications() {
  const needed = useSyncExternalStore(onToastContainerNeeded, toastContainerNeeded, () => false);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  );
}

import { Suspense, lazy, useEffect, useState } from 'react';

const Notifications = lazy(() => import('@mantine/notifications').then((module) => ({ default: module.Notifications })));

/** Mounts Mantine's toast container once the page is idle, so it never delays the first paint. */
export function LazyNotifications() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const schedule = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 200));
    schedule(() => setReady(true));
  }, []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" />
    </Suspense>
  );
}

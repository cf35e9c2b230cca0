import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { StartUpGate } from '../frame/start-up-gate';

/** The router's pages, once start-up has not failed. */
export function AppRoot({ router }: { router: AnyRouter }) {
  return (
    <StartUpGate>
      <RouterProvider router={router} />
    </StartUpGate>
  );
}

import { Outlet, createFileRoute } from '@tanstack/react-router';
import { MantineRoot } from '../theme/mantine-root';

/**
 * Every page but the home page is drawn with Mantine. This pathless layout (no URL of its own) loads
 * MantineProvider with the first of those pages and keeps it while the visitor moves between them; the
 * home page stays outside, so its first load carries no Mantine code (docs/performance.md).
 */
export const Route = createFileRoute('/_mantine')({
  component: () => (
    <MantineRoot>
      <Outlet />
    </MantineRoot>
  ),
});

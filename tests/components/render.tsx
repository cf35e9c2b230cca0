import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MantineRoot } from '../../src/theme/mantine-root';
import { SiteLinkProvider, anchorLinksAt } from '../../src/components/site-link';

/**
 * Renders inside the site's MantineProvider, which under Vitest is Mantine's test environment, with the
 * site's links as the public pages draw them (plain anchors).
 */
export function renderWithMantine(ui: ReactNode) {
  return render(
    <MantineRoot>
      <SiteLinkProvider value={anchorLinksAt('/')}>{ui}</SiteLinkProvider>
    </MantineRoot>,
  );
}

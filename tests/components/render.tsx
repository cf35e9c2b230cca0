import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MantineRoot } from '../../src/theme/mantine-root';

/** Renders inside the site's MantineProvider, which under Vitest is Mantine's test environment. */
export function renderWithMantine(ui: ReactNode) {
  return render(<MantineRoot>{ui}</MantineRoot>);
}

import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { theme } from '../../src/theme/theme';

/** Renders inside Mantine's test environment: no portals' transitions, no animations. */
export function renderWithMantine(ui: ReactNode) {
  return render(
    <MantineProvider theme={theme} env="test">
      {ui}
    </MantineProvider>,
  );
}

/**
 * The site's MantineProvider, one setup for every part drawn with Mantine: the pages under
 * src/routes/_mantine/, the signed-in account menu and the toast container each mount it around
 * themselves and load it with their own code, so the plain shell and the home page never wait for
 * Mantine (docs/performance.md).
 *
 * It writes no CSS variables: the shell needs them before this code arrives, so they are in the page's CSS
 * from the start (src/theme/theme-variables.ts). The component styles sit in the `mantine` cascade layer,
 * so arriving after the site's own CSS modules does not let them override those modules.
 */
import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import '@mantine/core/styles.layer.css';
import { theme } from './theme';

// Under Vitest, Mantine's test environment: jsdom lays nothing out, so real transitions and popover
// positioning would leave menus and dialogs hidden. Production builds drop this branch.
const env = import.meta.env.MODE === 'test' ? 'test' : 'default';

export function MantineRoot({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" withCssVariables={false} env={env}>
      {children}
    </MantineProvider>
  );
}

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
// The styles of the Mantine components the site uses, not all of Mantine's (250 KB): a prerendered page
// waits for them before its first paint (issue 12). Mantine's order: shared parts first, as its docs ask.
// A component new to the site needs its line here (or in the module that uses it).
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
// Before the components built on Text (Anchor), whose rules must win over its own.
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Accordion.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/Title.layer.css';
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

import type { ComponentType } from 'react';
import { MantineRoot } from '../../theme/mantine-root';

/**
 * A public page drawn with Mantine, as the public entry shows it: inside the provider that the router's
 * pathless `_mantine` layout gives the same page (src/routes/_mantine.tsx), so both trees render one markup.
 */
export function mantinePage(Page: ComponentType): ComponentType {
  return function MantinePage() {
    return (
      <MantineRoot>
        <Page />
      </MantineRoot>
    );
  };
}

import { Button } from '@mantine/core';
import type { AppLinkPhase } from './app-link-status';

export interface AppLink {
  phase: AppLinkPhase;
  onOpen: () => void;
}

/**
 * A button that opens a fixed app link (/success's "Open Desktop App", /cancel's "Return to App"). A real
 * link, so it works before the page is hydrated; once it is, the click goes through `onOpen`, which says
 * what is happening (machines/app-link.ts).
 */
export function AppLinkButton({
  href,
  label,
  appLink,
  variant = 'filled',
}: {
  href: string;
  label: string;
  appLink?: AppLink;
  variant?: 'filled' | 'default';
}) {
  return (
    <Button
      component="a"
      href={href}
      variant={variant}
      onClick={(event: React.MouseEvent) => {
        if (!appLink) return;
        event.preventDefault();
        appLink.onOpen();
      }}
    >
      {label}
    </Button>
  );
}

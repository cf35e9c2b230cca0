import { Notifications } from '@mantine/notifications';
import { useMediaQuery } from '@mantine/hooks';
// After MantineRoot, which brings Mantine's core styles: in the same cascade layer, order decides.
import { MantineRoot } from '../theme/mantine-root';
import '@mantine/notifications/styles.layer.css';
import classes from './toast-container.module.css';

/**
 * A phone (below Mantine's `xs`, 36em): a toast spans the screen's width, so at the top it would lie over
 * the page's first card (on /signin, over the sign-in card and its buttons, issue 34); at the bottom it
 * covers the end of the page, which the customer scrolls to last.
 */
const PHONE = '(max-width: 35.99em)';

/** Where every toast appears (src/services/toasts.ts shows them); the site's one <Notifications />. */
export function ToastContainer() {
  // Read at once, not in an effect: the container mounts with its first toast (lazy-notifications.tsx).
  const phone = useMediaQuery(PHONE, undefined, { getInitialValueInEffect: false });
  return (
    <MantineRoot>
      <Notifications position={phone ? 'bottom-center' : 'top-right'} className={classes.root} />
    </MantineRoot>
  );
}

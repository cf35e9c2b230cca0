import { Notifications } from '@mantine/notifications';
// After MantineRoot, which brings Mantine's core styles: in the same cascade layer, order decides.
import { MantineRoot } from '../theme/mantine-root';
import '@mantine/notifications/styles.layer.css';
import classes from './toast-container.module.css';

/** Where every toast appears (src/services/toasts.ts shows them); the site's one <Notifications />. */
export function ToastContainer() {
  return (
    <MantineRoot>
      <Notifications position="top-right" className={classes.root} />
    </MantineRoot>
  );
}

import { brand } from '../config/brand';
import classes from './connection-notice.module.css';

const CONNECTION_NOTICE = `We can't reach ${brand.productName} right now. Retrying…`;

/**
 * The quiet notice while a stored session cannot be checked because the API is unreachable (issue 11
 * item 1): the session is kept and checked again; the pages stay usable meanwhile. Plain markup, since
 * the home page carries no Mantine.
 */
export function ConnectionNotice() {
  return (
    <p className={classes.notice} role="status">
      {CONNECTION_NOTICE}
    </p>
  );
}

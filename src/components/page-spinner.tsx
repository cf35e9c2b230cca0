import classes from './page-spinner.module.css';

/**
 * Shown while authentication state loads (spec §2: guarded pages show a spinner), and at start-up before
 * anything else, so it is plain markup: no Mantine code is needed to show it.
 *
 * `footerWaits`: for a spinner the page is rendered in place of (not over, as the /account shell's): the
 * footer is hidden until the page arrives (src/app/router/app-layout.module.css), or it would jump.
 */
export function PageSpinner({ label = 'Loading', footerWaits = false }: { label?: string; footerWaits?: boolean }) {
  return (
    <div className={classes.status} role="status" aria-live="polite" data-footer-waits={footerWaits || undefined}>
      <span className={classes.loader} aria-hidden="true" />
      <span className={classes.label}>{label}</span>
    </div>
  );
}

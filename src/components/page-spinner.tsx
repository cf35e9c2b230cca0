import classes from './page-spinner.module.css';

/**
 * Shown while authentication state loads (spec §2: guarded pages show a spinner), and at start-up before
 * anything else, so it is plain markup: no Mantine code is needed to show it.
 */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className={classes.status} role="status" aria-live="polite">
      <span className={classes.loader} aria-hidden="true" />
      <span className={classes.label}>{label}</span>
    </div>
  );
}

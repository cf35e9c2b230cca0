import plain from '../components/plain.module.css';
import classes from './auth-error-page.module.css';

/**
 * Spec §2 Start-up: authentication could not initialise, so nothing else renders. Plain markup: it must
 * show even when nothing but the first load has arrived.
 */
export function AuthErrorPage({ message, onReload }: { message: string; onReload: () => void }) {
  return (
    <main className={classes.page}>
      <div className={`${plain.card} ${classes.panel}`}>
        <h1 className={`${plain.title} ${classes.title}`}>Authentication Error</h1>
        <p className={classes.message}>{message}</p>
        <button type="button" className={plain.button} onClick={onReload}>
          Reload Page
        </button>
      </div>
    </main>
  );
}

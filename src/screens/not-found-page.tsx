import { useEffect } from 'react';
import { Link, useLocation } from '@tanstack/react-router';
import plain from '../components/plain.module.css';
import classes from './not-found-page.module.css';

/** Any path we do not serve. Plain markup, like the shell it renders in (the root route's not-found page). */
export function NotFoundPage() {
  const pathname = useLocation({ select: (location) => location.pathname });

  useEffect(() => {
    // Spec §2: the missing path is logged. A warning, not an error: a visitor's typo is not a fault of ours.
    console.warn('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);

  return (
    <div className={`${plain.container} ${classes.page}`} data-size="sm">
      <h1 className={`${plain.title} ${classes.code}`}>404</h1>
      <p className={classes.text}>Oops! Page not found</p>
      <Link to="/" className={plain.button} data-variant="light">
        Return to Home
      </Link>
    </div>
  );
}

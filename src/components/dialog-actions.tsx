import { Children, type ReactNode } from 'react';
import stack from './button-stack.module.css';
import classes from './dialog-actions.module.css';

/**
 * The buttons of a confirmation dialog (issue 22 item 8): put the confirming action last. Two buttons share
 * a row from 36em up; three never fit a dialog's width evenly, so they always stack (no ragged wrap).
 */
export function DialogActions({ children }: { children: ReactNode }) {
  const count = Children.toArray(children).filter(Boolean).length;
  return (
    <div className={`${stack.buttons} ${classes.actions}`} data-stacked={count > 2 || undefined}>
      {children}
    </div>
  );
}

import { Icon } from './icons';
import classes from './check-list.module.css';

/**
 * A list whose items each carry a tick: plan features, next steps, reasons to subscribe. Plain markup, as
 * the home page's pricing card uses it before Mantine has loaded.
 */
export function CheckList({ items, color = 'green' }: { items: readonly string[]; color?: 'green' | 'veil' }) {
  return (
    <ul className={classes.list}>
      {items.map((item) => (
        <li key={item} className={classes.item}>
          <span className={classes.tick} data-color={color}>
            <Icon name="check" size={14} />
          </span>
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Steps still to take, numbered: a tick reads as done, and "What's Next" on /success is what the customer has
 * yet to do (issue 45, notes 19 and 30).
 */
export function StepList({ items }: { items: readonly string[] }) {
  return (
    <ol className={classes.list}>
      {items.map((item, index) => (
        <li key={item} className={classes.item}>
          <span className={classes.step} aria-hidden="true">
            {index + 1}
          </span>
          <span>{item}</span>
        </li>
      ))}
    </ol>
  );
}

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

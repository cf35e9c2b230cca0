import { brand } from '../config/brand';
import plain from './plain.module.css';
import classes from './plan-price.module.css';

/**
 * The plan's name, its price once and the per-month figure: the top of every pricing card (plain markup, see
 * plain.module.css). A badge only where it tells something (no "Best value" on the only plan).
 */
export function PlanPrice({ headingOrder, badge }: { headingOrder: 2 | 3; badge?: string }) {
  const Heading = headingOrder === 2 ? 'h2' : 'h3';
  return (
    <>
      <div className={classes.top}>
        <div>
          <Heading className={`${plain.title} ${classes.planName}`}>{brand.price.tierName}</Heading>
          <p className={`${classes.small} ${plain.dimmed}`}>{brand.price.planName}</p>
        </div>
        {badge && <span className={plain.badge}>{badge}</span>}
      </div>
      <p className={classes.price}>
        <span className={classes.amount}>{brand.price.amount}</span>
        <span className={plain.dimmed}>per {brand.price.interval.noun}</span>
      </p>
      <p className={`${classes.note} ${plain.dimmed}`}>{brand.price.monthlyNote}</p>
    </>
  );
}

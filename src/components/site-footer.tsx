import { brand } from '../config/brand';
import { SiteLink } from './site-link';
import classes from './site-footer.module.css';

/** The footer of every page, naming the operator. Plain markup: it is on the home page's first load. */
export function SiteFooter() {
  return (
    <footer className={classes.footer}>
      <div className={classes.inner}>
        <p className={classes.text}>
          © {new Date().getFullYear()} {brand.productName} is operated by {brand.operator}, {brand.operatorDescription}.
        </p>
        <nav aria-label="Footer" className={classes.links}>
          <SiteLink to="/support" className={classes.link}>
            Support
          </SiteLink>
          <SiteLink to="/privacy" className={classes.link}>
            Privacy
          </SiteLink>
          <SiteLink to="/terms" className={classes.link}>
            Terms
          </SiteLink>
          <SiteLink to="/status" className={classes.link}>
            Server status
          </SiteLink>
          <a href={`mailto:${brand.supportEmail}`} className={classes.link}>
            {brand.supportEmail}
          </a>
        </nav>
      </div>
    </footer>
  );
}

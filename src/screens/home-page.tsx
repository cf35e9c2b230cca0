import { brand } from '../config/brand';
import { ENCRYPTION_FEATURE, ENCRYPTION_SENTENCE } from '../content/encryption';
import { CheckList } from '../components/check-list';
import { useDownloadHref } from '../components/use-download-href';
import { PlanPrice } from '../components/plan-price';
import { SiteLink } from '../components/site-link';
import { Icon, type IconName } from '../components/icons';
import plain from '../components/plain.module.css';
import classes from './home-page.module.css';

const HIGHLIGHTS: { icon: IconName; title: string; text: string }[] = [
  { icon: 'bolt', title: 'Lightning Fast', text: 'Optimised servers and modern protocols keep streaming, gaming and calls smooth.' },
  {
    icon: 'shield',
    title: 'Military Grade',
    text: `${ENCRYPTION_SENTENCE} A strict zero-log policy keeps what you do online yours.`,
  },
  { icon: 'globe', title: 'Global Access', text: 'Reach the content you need from server locations around the world.' },
];

const FEATURES: { icon: IconName; title: string; text: string }[] = [
  { icon: 'eyeOff', title: 'Zero-Log Policy', text: 'We never record your browsing, traffic, DNS queries or connection times.' },
  { icon: 'incognito', title: 'Anonymous Browsing', text: 'Hide your IP address from websites, advertisers and trackers.' },
  { icon: 'wifi', title: 'Public WiFi Protection', text: 'Stay safe on café, hotel and airport networks with encrypted traffic.' },
  {
    icon: 'devices',
    title: 'Multi-Device Support',
    text: `Protect up to ${brand.deviceLimit} devices on macOS, Windows, iOS and Android with one subscription.`,
  },
  { icon: 'server', title: 'Reliable Servers', text: 'A 99.9% uptime target, monitored around the clock.' },
  { icon: 'support', title: '24/7 Support', text: 'Real people ready to help by e-mail, any time of day.' },
];

const PLAN_FEATURES = [
  'All server locations worldwide',
  ENCRYPTION_FEATURE,
  'Unlimited bandwidth, no throttling',
  `Up to ${brand.deviceLimit} devices`,
  'Strict zero-log policy',
  brand.moneyBack.name,
];

/**
 * The home page. Plain markup styled like Mantine (components/plain.module.css): it is the page most
 * visitors land on, and its first load must stay within budget without Mantine's code (docs/performance.md).
 */
export function HomePage() {
  const downloadHref = useDownloadHref();
  return (
    <>
      <section className={classes.hero}>
        <div className={`${plain.container} ${classes.heroInner}`}>
          <span className={plain.badge} data-size="lg">
            Ultimate Privacy Protection
          </span>
          <h1 className={`${plain.title} ${classes.heroTitle}`}>Secure Your Digital Freedom</h1>
          <p className={`${plain.dimmed} ${classes.heroText}`}>
            {brand.productName} encrypts your connection and hides your activity on every network, with a strict
            zero-log policy and servers you can rely on.
          </p>
          <div className={classes.heroActions}>
            <a className={plain.button} data-size="lg" href={downloadHref}>
              Download Now
            </a>
            <a
              className={plain.button}
              data-size="lg"
              data-variant="default"
              href={brand.learnMoreUrl}
              target="_blank"
              rel="noopener noreferrer"
            >
              Learn More
              {/* Says where the link goes to screen readers and search engines; the button reads as before. */}
              <span className={plain.visuallyHidden}> about {brand.productName} (opens in a new tab)</span>
            </a>
          </div>
        </div>
      </section>

      <section className={`${plain.container} ${classes.section}`} data-size="lg" aria-labelledby="highlights-title">
        <h2 id="highlights-title" className={`${plain.title} ${classes.sectionTitle}`}>
          Why {brand.productName}
        </h2>
        <div className={classes.highlights}>
          {HIGHLIGHTS.map((item) => (
            <div key={item.title} className={plain.card}>
              <span className={`${plain.iconTile} ${classes.highlightIcon}`} data-variant="light">
                <Icon name={item.icon} size={26} />
              </span>
              <h3 className={`${plain.title} ${classes.highlightTitle}`}>{item.title}</h3>
              <p className={`${plain.dimmed} ${classes.highlightText}`}>{item.text}</p>
            </div>
          ))}
        </div>
      </section>

      <section className={classes.band} aria-labelledby="features-title">
        <div className={`${plain.container} ${classes.section}`} data-size="lg">
          <h2 id="features-title" className={`${plain.title} ${classes.sectionTitle}`}>
            Everything you need to stay private
          </h2>
          <div className={classes.features}>
            {FEATURES.map((item) => (
              <div key={item.title} className={classes.feature}>
                <span className={plain.iconTile}>
                  <Icon name={item.icon} size={22} />
                </span>
                <div>
                  <h3 className={`${plain.title} ${classes.featureTitle}`}>{item.title}</h3>
                  <p className={`${plain.dimmed} ${classes.featureText}`}>{item.text}</p>
                </div>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className={`${plain.container} ${classes.section}`} data-size="xs" aria-labelledby="pricing-title">
        <h2 id="pricing-title" className={`${plain.title} ${classes.sectionTitle}`}>
          Simple pricing
        </h2>
        <div className={`${plain.card} ${classes.priceCard}`}>
          {/* No badge: "Best value" on the only plan says nothing (issue 34). */}
          <PlanPrice headingOrder={3} />
          <CheckList items={PLAN_FEATURES} />
          {/* Where the price first appears, it says it renews (issue 34). */}
          <p className={`${plain.dimmed} ${classes.disclosure}`}>{brand.price.renewalDisclosure}</p>
          <SiteLink to="/subscribe" className={`${plain.button} ${classes.priceButton}`} data-size="md" data-block>
            Get {brand.price.tierName}
          </SiteLink>
        </div>
      </section>
    </>
  );
}

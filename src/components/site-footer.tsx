import { Link } from '@tanstack/react-router';
import { Anchor, Group, Text } from '@mantine/core';
import { brand } from '../config/brand';
import classes from './site-footer.module.css';

export function SiteFooter() {
  return (
    <footer className={classes.footer}>
      <div className={classes.inner}>
        <Text size="sm" c="dimmed">
          © {new Date().getFullYear()} {brand.productName} is operated by {brand.operator}, {brand.operatorDescription}.
        </Text>
        <Group gap="md" component="nav" aria-label="Footer">
          <Anchor component={Link} to="/support" size="sm" c="dimmed">
            Support
          </Anchor>
          <Anchor component={Link} to="/privacy" size="sm" c="dimmed">
            Privacy
          </Anchor>
          <Anchor component={Link} to="/terms" size="sm" c="dimmed">
            Terms
          </Anchor>
          <Anchor href={`mailto:${brand.supportEmail}`} size="sm" c="dimmed">
            {brand.supportEmail}
          </Anchor>
        </Group>
      </div>
    </footer>
  );
}

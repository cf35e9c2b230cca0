import { Link } from '@tanstack/react-router';
import { Button, Text } from '@mantine/core';
import { SectionCard } from '../components/section-card';
import cardAction from '../components/card-action.module.css';

export function HelpCard() {
  return (
    <SectionCard id="help-title" title="Need Help?">
      <Text c="dimmed" mt="sm">
        Our support team is available 24/7 to help with setup, billing or anything else.
      </Text>
      <Button component={Link} to="/support" variant="default" mt="md" className={cardAction.action}>
        Contact Support
      </Button>
    </SectionCard>
  );
}

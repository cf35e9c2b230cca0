import { Link } from '@tanstack/react-router';
import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { brand } from '../config/brand';
import { CheckList } from '../components/check-list';
import { PlanPrice } from '../components/plan-price';
import { Icon, type IconName } from '../components/icons';
import classes from './home-page.module.css';

const HIGHLIGHTS: { icon: IconName; title: string; text: string }[] = [
  { icon: 'bolt', title: 'Lightning Fast', text: 'Optimised servers and modern protocols keep streaming, gaming and calls smooth.' },
  {
    icon: 'shield',
    title: 'Military Grade',
    text: 'AES-256 encryption with a strict zero-log policy: what you do online stays yours.',
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
  'AES-256 encryption with IKEv2/IPSec',
  'Unlimited bandwidth, no throttling',
  `Up to ${brand.deviceLimit} devices`,
  'Strict zero-log policy',
  '30-day money-back guarantee',
];

export function HomePage() {
  return (
    <>
      <section className={classes.hero}>
        <Container size="md" py={{ base: 64, md: 96 }}>
          <Stack align="center" gap="lg" ta="center">
            <Badge size="lg" variant="light" radius="xl">
              Ultimate Privacy Protection
            </Badge>
            <Title order={1} className={classes.heroTitle}>
              Secure Your Digital Freedom
            </Title>
            <Text size="lg" c="dimmed" maw={620}>
              {brand.productName} encrypts your connection and hides your activity on every network, with a
              strict zero-log policy and servers you can rely on.
            </Text>
            <Group justify="center" gap="md">
              <Button component="a" href={brand.downloadUrl} size="lg">
                Download Now
              </Button>
              <Button
                component="a"
                href={brand.learnMoreUrl}
                target="_blank"
                rel="noopener noreferrer"
                size="lg"
                variant="default"
              >
                Learn More
              </Button>
            </Group>
          </Stack>
        </Container>
      </section>

      <Container size="lg" py={64} component="section" aria-labelledby="highlights-title">
        <Title order={2} id="highlights-title" ta="center" mb="xl">
          Why {brand.productName}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          {HIGHLIGHTS.map((item) => (
            <Card key={item.title} withBorder padding="xl">
              <ThemeIcon size={48} radius="md" variant="light">
                <Icon name={item.icon} size={26} />
              </ThemeIcon>
              <Title order={3} size="h4" mt="md">
                {item.title}
              </Title>
              <Text c="dimmed" mt="xs">
                {item.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <Box className={classes.band} component="section" aria-labelledby="features-title">
        <Container size="lg" py={64}>
          <Title order={2} id="features-title" ta="center" mb="xl">
            Everything you need to stay private
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xl">
            {FEATURES.map((item) => (
              <Group key={item.title} align="flex-start" wrap="nowrap" gap="md">
                <ThemeIcon size={40} radius="md">
                  <Icon name={item.icon} size={22} />
                </ThemeIcon>
                <div>
                  <Title order={3} size="h5">
                    {item.title}
                  </Title>
                  <Text c="dimmed" size="sm" mt={4}>
                    {item.text}
                  </Text>
                </div>
              </Group>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="xs" py={64} component="section" aria-labelledby="pricing-title">
        <Title order={2} id="pricing-title" ta="center" mb="xl">
          Simple pricing
        </Title>
        <Card withBorder shadow="md" padding="xl" radius="lg" className={classes.priceCard}>
          <PlanPrice headingOrder={3} badge="Best value" note={`Just $${brand.price.perMonthUsd} per month`} />
          <CheckList items={PLAN_FEATURES} />
          <Button component={Link} to="/subscribe" size="md" fullWidth mt="xl">
            Get {brand.price.tierName}
          </Button>
        </Card>
      </Container>
    </>
  );
}

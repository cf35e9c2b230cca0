import { Alert, Anchor, Badge, Button, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { DOWNLOAD_SIZE, PLATFORMS, type Platform } from '../config/platforms';
import { SiteLink } from '../components/site-link';
import { WIREGUARD_ELSEWHERE, WIREGUARD_ELSEWHERE_TITLE } from '../content/wireguard-elsewhere';

export interface DownloadPageProps {
  /** The visitor's own system, once the page knows it (issue 34): its card comes first and says so. */
  visitor?: Platform | null;
  /** A desktop system with no app ("Linux"): the page says how to connect it, with WireGuard, first. */
  unsupported?: string | null;
}

const PLATFORM_NAMES = PLATFORMS.map((platform) => platform.name);
const PLATFORM_LIST = `${PLATFORM_NAMES.slice(0, -1).join(', ')} and ${PLATFORM_NAMES.at(-1)}`;

/**
 * /download (issue 22 item 3): every platform with its requirement and its own download, prerendered.
 * Each card's id is the platform's, so "Download Now" can point at /download#windows. Once hydrated, the
 * visitor's system leads the list, and a Linux visitor is told first how to connect: WireGuard (issue 45 item 5).
 */
export function DownloadPage({ visitor = null, unsupported = null }: DownloadPageProps = {}) {
  const platforms = visitor ? [visitor, ...PLATFORMS.filter((platform) => platform.id !== visitor.id)] : PLATFORMS;
  return (
    <Container size="md" py={{ base: 32, md: 56 }}>
      <Stack gap={4} mb="xl">
        <Title order={1}>Download {brand.productName}</Title>
        <Text c="dimmed">
          One subscription covers up to {brand.deviceLimit} devices. Each download needs {DOWNLOAD_SIZE}.
        </Text>
      </Stack>
      {unsupported && (
        <Alert color="blue" title={`On ${unsupported}? Connect with WireGuard`} mb="xl">
          The {brand.productName} app runs on {PLATFORM_LIST}. {WIREGUARD_ELSEWHERE}{' '}
          <Anchor component={SiteLink} to="/account" size="sm" underline="always">
            Go to your account
          </Anchor>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {platforms.map((platform) => (
          <Card
            key={platform.id}
            id={platform.id}
            withBorder
            padding="lg"
            radius="md"
            component="section"
            aria-labelledby={`${platform.id}-title`}
          >
            <Group justify="space-between" gap="xs">
              <Title order={2} size="h4" id={`${platform.id}-title`}>
                {platform.name}
              </Title>
              {platform.id === visitor?.id && <Badge variant="light">Your system</Badge>}
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              Requires {platform.requirement}
            </Text>
            <Button component="a" href={platform.url} mt="md" aria-label={`Download for ${platform.name}`}>
              Download
            </Button>
          </Card>
        ))}
      </SimpleGrid>
      {/* Prerendered for everyone, so a Linux or router user finds it before any script runs (issue 45 item 5). */}
      <Card id="wireguard" withBorder padding="lg" radius="md" mt="lg" component="section" aria-labelledby="wireguard-title">
        <Title order={2} size="h4" id="wireguard-title">
          {WIREGUARD_ELSEWHERE_TITLE}
        </Title>
        <Text size="sm" mt={4}>
          {WIREGUARD_ELSEWHERE}
        </Text>
        <Button component={SiteLink} to="/account" variant="default" mt="md" style={{ alignSelf: 'flex-start' }}>
          Add a device on your account page
        </Button>
      </Card>
      <Text size="sm" c="dimmed" mt="xl">
        After installing, open the app and sign in with the same Google or Apple account you use here. Need help?{' '}
        <Anchor component={SiteLink} to="/support" size="sm" underline="always">
          Visit Support
        </Anchor>
        .
      </Text>
    </Container>
  );
}

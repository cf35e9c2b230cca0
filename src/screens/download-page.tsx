import { Alert, Anchor, Badge, Button, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { DOWNLOAD_SIZE, PLATFORMS, type Platform } from '../config/platforms';
import { SiteLink } from '../components/site-link';

export interface DownloadPageProps {
  /** The visitor's own system, once the page knows it (issue 34): its card comes first and says so. */
  visitor?: Platform | null;
  /** A desktop system with no app yet ("Linux"): the page says so rather than nothing. */
  unsupported?: string | null;
}

const PLATFORM_NAMES = PLATFORMS.map((platform) => platform.name);
const PLATFORM_LIST = `${PLATFORM_NAMES.slice(0, -1).join(', ')} and ${PLATFORM_NAMES.at(-1)}`;

/**
 * /download (issue 22 item 3): every platform with its requirement and its own download, prerendered.
 * Each card's id is the platform's, so "Download Now" can point at /download#windows. Once hydrated, the
 * visitor's system leads the list, and a Linux visitor is told there is no app for it yet.
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
        <Alert color="blue" title={`No ${unsupported} app yet`} mb="xl">
          {brand.productName} runs on {PLATFORM_LIST}; there is no app for {unsupported} yet. Your subscription
          works on any of these, on up to {brand.deviceLimit} devices.
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

import { Link } from '@tanstack/react-router';
import { Anchor, Button, Card, Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { DOWNLOAD_SIZE, PLATFORMS } from '../config/platforms';

/**
 * /download (issue 22 item 3): every platform with its requirement and its own download, prerendered.
 * Each card's id is the platform's, so "Download Now" can point at /download#windows.
 */
export function DownloadPage() {
  return (
    <Container size="md" py={{ base: 32, md: 56 }}>
      <Stack gap={4} mb="xl">
        <Title order={1}>Download {brand.productName}</Title>
        <Text c="dimmed">
          One subscription covers up to {brand.deviceLimit} devices. Each download needs {DOWNLOAD_SIZE}.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {PLATFORMS.map((platform) => (
          <Card
            key={platform.id}
            id={platform.id}
            withBorder
            padding="lg"
            radius="md"
            component="section"
            aria-labelledby={`${platform.id}-title`}
          >
            <Title order={2} size="h4" id={`${platform.id}-title`}>
              {platform.name}
            </Title>
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
        <Anchor component={Link} to="/support" size="sm" underline="always">
          Visit Support
        </Anchor>
        .
      </Text>
    </Container>
  );
}

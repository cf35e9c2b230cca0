import { useEffect } from 'react';
import { Link, useLocation } from '@tanstack/react-router';
import { Button, Container, Stack, Text, Title } from '@mantine/core';

export function NotFoundPage() {
  const pathname = useLocation({ select: (location) => location.pathname });

  useEffect(() => {
    // Spec §2: the missing path is logged. A warning, not an error: a visitor's typo is not a fault of ours.
    console.warn('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);

  return (
    <Container size="sm" py={{ base: 64, md: 120 }}>
      <Stack align="center" ta="center" gap="md">
        <Title order={1} fz={96} lh={1}>
          404
        </Title>
        <Text size="xl">Oops! Page not found</Text>
        <Button component={Link} to="/" variant="light">
          Return to Home
        </Button>
      </Stack>
    </Container>
  );
}

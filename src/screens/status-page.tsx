import { memo } from 'react';
import { Box, Container, Stack, Text, Title } from '@mantine/core';
import { brand } from '../config/brand';
import { ServerStatusBoard, type ServerStatusBoardProps } from './server-status-board';

/**
 * /status (issue 48 item 2): every server's state, load and measured uptime, public. Prerendered with
 * nothing fetched yet ("Loading the server status…"); the page's flow fills it and refreshes it.
 */
export function StatusPage(props: Omit<ServerStatusBoardProps, 'headingOrder'>) {
  return (
    <Container size="md" py={{ base: 32, md: 56 }}>
      <StatusIntro />
      {/* The figures arrive after the page has painted: the space kept for them holds the footer below the
          first screen, so their arrival shifts nothing the visitor sees (CLS). */}
      <Box mih="70vh">
        <ServerStatusBoard {...props} headingOrder={2} />
      </Box>
    </Container>
  );
}

// Memoised: the page re-renders every second for the board's ages; its heading and words never change.
const StatusIntro = memo(function StatusIntro() {
  return (
    <Stack gap={4} mb="xl">
      <Title order={1}>Server status</Title>
      <Text c="dimmed">
        Every {brand.productName} server, its load and its measured uptime against our 99.9% target. This page
        refreshes itself every 30 seconds. Load is a share of each server's capacity: we publish nothing about
        any customer.
      </Text>
    </Stack>
  );
});

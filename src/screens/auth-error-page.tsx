import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';

/** Spec §2 Start-up: authentication could not initialise, so nothing else renders. */
export function AuthErrorPage({ message, onReload }: { message: string; onReload: () => void }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="lg" maw={480} w="100%">
        <Stack gap="md" align="flex-start">
          <Title order={1} size="h2">
            Authentication Error
          </Title>
          <Text>{message}</Text>
          <Button onClick={onReload}>Reload Page</Button>
        </Stack>
      </Paper>
    </Center>
  );
}

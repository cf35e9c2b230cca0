import { useState, type ReactNode } from 'react';
// The console's own Mantine styles (inputs, tables): in its chunk, never on a customer's page.
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Table.layer.css';
import { Badge, Button, Card, Container, Group, Loader, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import type { StaffCustomerSummary } from '../../contract/api';
import type { StaffRole } from '../../contract/staff';
import classes from './staff-console.module.css';
import { formatLongDate } from './subscription-texts';

/** The console's frame (issue 30, item 7): its heading and the role, then what the page puts in it. Props only. */
export function StaffConsoleFrame({ role, children }: { role: StaffRole; children: ReactNode }) {
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between">
          <Title order={1}>Staff console</Title>
          <Badge variant="light" size="lg">
            {role.charAt(0).toUpperCase() + role.slice(1)}
          </Badge>
        </Group>
        {children}
      </Stack>
    </Container>
  );
}

export interface StaffSearchProps {
  query: string;
  busy: boolean;
  error: string | null;
  onSearch: (query: string) => void;
}

/** The search form, what went wrong last, and "Loading…" while the console waits. */
export function StaffSearch({ query, busy, error, onSearch }: StaffSearchProps) {
  const [value, setValue] = useState(query);
  return (
    <>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (value.trim()) onSearch(value.trim());
        }}
      >
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Search customers"
            description="E-mail (or its beginning), account id, payment customer id or receipt number"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            style={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" loading={busy}>
            Search
          </Button>
        </Group>
      </form>
      {error && (
        <Text className={classes.dangerText} role="alert">
          {error}
        </Text>
      )}
      {busy && (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text size="sm">Loading…</Text>
        </Group>
      )}
    </>
  );
}

/** The customers a search found (nothing before a search). */
export function StaffResults({ customers, searched, onOpen }: { customers: StaffCustomerSummary[]; searched: boolean; onOpen: (userId: string) => void }) {
  if (!searched) return null;
  if (customers.length === 0) return <Text>No customer matches.</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped aria-label="Customers found">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Since</Table.Th>
            <Table.Th>
              <VisuallyHidden>Open</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {customers.map((customer) => (
            <Table.Tr key={customer.id}>
              <Table.Td>{customer.email}</Table.Td>
              <Table.Td>{customer.name}</Table.Td>
              <Table.Td>{customer.status}</Table.Td>
              <Table.Td>{formatLongDate(customer.createdAt)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="light" onClick={() => onOpen(customer.id)} aria-label={`Open ${customer.email}`}>
                  Open
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Issue 45 T12: a role just granted (or a sign-in the provider no longer takes) asks for the sign-in again,
 * instead of a 404; /signin brings the visitor back here. It names no console: whoever sees it learns only
 * that their sign-in must be renewed.
 */
export function StaffSignIn() {
  return (
    <Container size={480} py={{ base: 48, md: 80 }}>
      <Card withBorder padding="xl" radius="lg">
        <Stack align="center" ta="center" gap="sm">
          <Title order={1} size="h2">
            Sign in again
          </Title>
          <Text>Your sign-in has changed. Sign in again to open this page.</Text>
          <Button component="a" href="/signin?redirect=%2Fstaff" mt="sm">
            Sign In Again
          </Button>
        </Stack>
      </Card>
    </Container>
  );
}

import { Anchor, Container, List, Stack, Table, Text, Title } from '@mantine/core';
// The privacy page's retention table (issue 45 item 1): loaded with the legal pages, not with every Mantine part.
import '@mantine/core/styles/Table.layer.css';
import type { LegalSection } from '../content/legal-section';

interface LegalDocumentProps {
  title: string;
  lastUpdated: string;
  sections: readonly LegalSection[];
}

export function LegalDocument({ title, lastUpdated, sections }: LegalDocumentProps) {
  return (
    <Container size="md" py="xl">
      <Title order={1}>{title}</Title>
      <Text mt="xs" mb="xl">
        Last updated {lastUpdated}
      </Text>
      <Stack gap="xl">
        {sections.map((section) => (
          <section key={section.heading}>
            <Title order={2} size="h3" mb="sm">
              {section.heading}
            </Title>
            <Stack gap="sm">
              {section.paragraphs.map((paragraph) => (
                <Text key={paragraph}>{paragraph}</Text>
              ))}
              {section.bullets && (
                <List spacing="xs">
                  {section.bullets.map((bullet) => (
                    <List.Item key={bullet}>{bullet}</List.Item>
                  ))}
                </List>
              )}
              {section.table && (
                <Table withTableBorder withColumnBorders verticalSpacing="xs" fz="sm">
                    <Table.Caption>{section.table.caption}</Table.Caption>
                    <Table.Thead>
                      <Table.Tr>
                        {section.table.head.map((heading) => (
                          <Table.Th key={heading} scope="col">
                            {heading}
                          </Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {section.table.rows.map(([first, ...rest]) => (
                        <Table.Tr key={first}>
                          <Table.Th scope="row" fw="normal">
                            {first}
                          </Table.Th>
                          {rest.map((value, index) => (
                            <Table.Td key={index}>{value}</Table.Td>
                          ))}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                </Table>
              )}
              {section.link && (
                <Text>
                  {/* The theme's dark-mode link colour is below 4.5:1 on the dark body, so links keep the
                      text colour and are told apart by their underline. */}
                  <Anchor href={section.link.href} c="inherit" underline="always">
                    {section.link.label}
                  </Anchor>
                </Text>
              )}
            </Stack>
          </section>
        ))}
      </Stack>
    </Container>
  );
}

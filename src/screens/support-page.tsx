import { Accordion, Anchor, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { SiteLink } from '../components/site-link';
import { brand } from '../config/brand';
import { faq } from '../content/faq';

/** Accordion values become element ids, so they must be free of spaces and punctuation. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '');
}

export function SupportPage() {
  return (
    <Container size="md" py="xl">
      <Title order={1}>Support Center</Title>
      <Text mt="sm" size="lg">
        Answers to the most common questions about setting up and using {brand.productName}. Can’t find what you
        need? Our team is here for you 24/7 by e-mail.
      </Text>

      <Stack gap="xl" mt="xl">
        {faq.map((category) => (
          <section key={category.category}>
            <Title order={2} size="h3" mb="sm">
              {category.category}
            </Title>
            {/* Not `multiple`: each category keeps one answer open at a time (spec §2). */}
            <Accordion variant="separated" order={3}>
              {category.items.map((item) => (
                <Accordion.Item key={item.question} value={slug(item.question)}>
                  <Accordion.Control>{item.question}</Accordion.Control>
                  <Accordion.Panel>
                    {item.answer}
                    {item.link && (
                      <>
                        {' '}
                        <Anchor component={SiteLink} to={item.link.to} underline="always">
                          {item.link.text}
                        </Anchor>
                      </>
                    )}
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </section>
        ))}

        <Paper component="section" withBorder p="lg">
          <Title order={2} size="h3">
            Still need help?
          </Title>
          <Text mt="xs">
            Write to us at {brand.supportEmail}. Tell us the e-mail you sign in with, your device and what happened,
            and we will get back to you.
          </Text>
          <Button component="a" href={`mailto:${brand.supportEmail}`} mt="md">
            Contact Support by Email
          </Button>
        </Paper>
      </Stack>
    </Container>
  );
}

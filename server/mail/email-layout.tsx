/**
 * The one look of every e-mail (issue 21 §3): the brand's name and violet, the message's content, and a
 * footer with the operator, the support address and why the customer gets it. Mail clients ignore most
 * CSS, so styles are inline (React Email) and the layout is a single 560 px column that narrows on phones;
 * a dark-mode block keeps it readable in clients that honour `prefers-color-scheme`.
 */
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import { brandForServer as brand } from '../brand.ts';
import { operatedBy, type MessageContent } from './messages.ts';

const { colors } = brand;
const font = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

const DARK_MODE = `
  :root { color-scheme: light dark; supported-color-schemes: light dark; }
  @media (prefers-color-scheme: dark) {
    .mail-body, .mail-body > table > tbody > tr > td { background-color: #1a1b1e !important; }
    .mail-card { background-color: #25262b !important; border-color: #373a40 !important; }
    .mail-text, .mail-heading { color: #e9ecef !important; }
    .mail-muted { color: #a6a7ab !important; }
    .mail-details { background-color: #2c2e33 !important; }
    .mail-link, .mail-brand { color: #a690ea !important; }
    .mail-link { text-decoration: underline !important; }
  }
`;

export function EmailLayout({ content, greeting, publicUrl }: { content: MessageContent; greeting: string; publicUrl: string }) {
  return (
    <Html lang="en">
      <Head>
        {/* The tab's and the reading pane's name in clients that show one (issue 45, T22): the subject. */}
        <title>{content.subject}</title>
        {/* Without it a phone lays the message out 980 px wide and shrinks it to about 40% (issue 34). */}
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <style>{DARK_MODE}</style>
      </Head>
      <Preview>{content.preview}</Preview>
      <Body className="mail-body" style={{ backgroundColor: '#f6f6f9', fontFamily: font, margin: 0, padding: '24px 12px' }}>
        <Container style={{ maxWidth: '560px', width: '100%' }}>
          <Text className="mail-brand" style={{ color: colors.primary, fontSize: '20px', fontWeight: 750, margin: '0 0 16px 4px' }}>{brand.productName}</Text>
          <Section
            className="mail-card"
            style={{ backgroundColor: '#ffffff', border: `1px solid ${colors.border}`, borderRadius: '12px', padding: '28px 24px' }}
          >
            <Heading as="h1" className="mail-heading" style={{ color: colors.text, fontSize: '22px', lineHeight: '30px', margin: '0 0 16px' }}>
              {content.heading}
            </Heading>
            <Text className="mail-text" style={paragraph}>
              {greeting}
            </Text>
            {content.paragraphs.map((text) => (
              <Text key={text} className="mail-text" style={paragraph}>
                {text}
              </Text>
            ))}
            {content.details && (
              <Section className="mail-details" style={{ backgroundColor: colors.primaryTint, borderRadius: '8px', margin: '8px 0 16px', padding: '12px 16px' }}>
                {content.details.map(([label, value]) => (
                  <Text key={label} className="mail-text" style={{ ...paragraph, margin: '4px 0' }}>
                    <span className="mail-muted" style={{ color: colors.muted }}>{label}: </span>
                    <strong>{value}</strong>
                  </Text>
                ))}
              </Section>
            )}
            {content.action && (
              <Section style={{ margin: '8px 0 16px' }}>
                <Button
                  href={content.action.url}
                  style={{ backgroundColor: colors.primary, borderRadius: '8px', color: '#ffffff', fontSize: '16px', fontWeight: 600, padding: '12px 20px' }}
                >
                  {content.action.label}
                </Button>
              </Section>
            )}
            {content.after?.map((text) => (
              <Text key={text} className="mail-text" style={paragraph}>
                {text}
              </Text>
            ))}
          </Section>
          <Hr style={{ borderColor: colors.border, margin: '24px 0 12px' }} />
          <Text className="mail-muted" style={footer}>
            {content.why}
          </Text>
          <Text className="mail-muted" style={footer}>
            {operatedBy()} Questions? Write to{' '}
            <Link className="mail-link" href={`mailto:${brand.supportEmail}`} style={link}>
              {brand.supportEmail}
            </Link>
            . How we use your data:{' '}
            <Link className="mail-link" href={`${publicUrl}/privacy`} style={link}>
              privacy policy
            </Link>
            .
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

const paragraph = { color: colors.text, fontSize: '16px', lineHeight: '24px', margin: '0 0 12px' };
/** Links look like links in every client, not by colour alone (issue 45, T22). */
const link = { color: colors.primary, textDecoration: 'underline' };
const footer = { color: colors.muted, fontSize: '13px', lineHeight: '20px', margin: '0 0 8px' };

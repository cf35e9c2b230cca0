/**
 * A message as a mail: subject, HTML (React Email) and a plain-text part written from the same content,
 * laid out to read well on its own (headings, label: value lines, links spelled out).
 */
import { render } from '@react-email/render';
import { brandForServer as brand } from '../brand.ts';
import type { MessageToSend } from '../domain/customer-messages.ts';
import { EmailLayout } from './email-layout.tsx';
import { composeMessage, operatedBy, type MessageContent } from './messages.ts';

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/**
 * "Hi Ada," from the customer's own name; "Hello," when there is none. A "name" that is only the address
 * (or its part before the @, as an identity provider fills in when the customer gave none) is no name: a
 * greeting must never read "Hi ada.lovelace.t4.22942," (issue 34).
 */
export function greetingFor({ name, email }: { name: string; email: string }): string {
  const whole = name.trim();
  const firstName = whole.split(/\s+/)[0] ?? '';
  const localPart = email.split('@')[0]!.toLowerCase();
  if (!firstName || whole.includes('@') || whole.toLowerCase() === localPart) return 'Hello,';
  return `Hi ${firstName},`;
}

export async function renderMail(message: MessageToSend, recipient: { name: string; email: string }, publicUrl: string): Promise<RenderedMail> {
  const content = composeMessage(message, publicUrl);
  const greeting = greetingFor(recipient);
  const html = await render(<EmailLayout content={content} greeting={greeting} publicUrl={publicUrl} />);
  return { subject: content.subject, html, text: plainText(content, greeting, publicUrl) };
}

function plainText(content: MessageContent, greeting: string, publicUrl: string): string {
  const blocks: string[] = [content.heading.toUpperCase(), greeting, ...content.paragraphs];
  if (content.details) blocks.push(content.details.map(([label, value]) => `${label}: ${value}`).join('\n'));
  if (content.action) blocks.push(`${content.action.label}: ${content.action.url}`);
  blocks.push(...(content.after ?? []));
  blocks.push(
    '--',
    content.why,
    `${operatedBy()} Questions? Write to ${brand.supportEmail}. How we use your data: ${publicUrl}/privacy`,
  );
  return `${blocks.join('\n\n')}\n`;
}

import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SupportPage } from '../../src/screens/support-page';
import { brand } from '../../src/config/brand';
import { faq } from '../../src/content/faq';
import { renderWithMantine } from './render';

const categories = [
  'Setup & Installation',
  'Connection Issues',
  'Security & Privacy',
  'Account & Billing',
  'Technical Support',
];

function categorySection(name: string): HTMLElement {
  const section = screen.getByRole('heading', { level: 2, name }).closest('section');
  if (!section) throw new Error(`no section for ${name}`);
  return section;
}

function itemsOf(category: string) {
  const found = faq.find((c) => c.category === category);
  if (!found) throw new Error(`no FAQ category ${category}`);
  return found.items;
}

describe('SupportPage', () => {
  it('renders one page title and the five FAQ categories in order', () => {
    renderWithMantine(<SupportPage />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(faq.map((c) => c.category)).toEqual(categories);
    for (const name of categories) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeDefined();
    }
    for (const category of faq) {
      expect(category.items.length).toBeGreaterThanOrEqual(3);
      expect(category.items.length).toBeLessThanOrEqual(5);
    }
  });

  it('shows an answer when its question is opened', async () => {
    const user = userEvent.setup();
    renderWithMantine(<SupportPage />);
    const [first] = itemsOf('Setup & Installation');
    if (!first) throw new Error('empty category');

    const control = screen.getByRole('button', { name: first.question });
    expect(control.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: first.question })).toBeNull();

    await user.click(control);

    expect(control.getAttribute('aria-expanded')).toBe('true');
    // The panel expands with a short transition, so wait for it.
    const panel = await screen.findByRole('region', { name: first.question });
    expect(panel.textContent).toContain(first.answer);
  });

  it('keeps one item open per category, independently of other categories', async () => {
    const user = userEvent.setup();
    renderWithMantine(<SupportPage />);
    const [first, second] = itemsOf('Connection Issues');
    const [other] = itemsOf('Account & Billing');
    if (!first || !second || !other) throw new Error('missing FAQ items');

    const connection = within(categorySection('Connection Issues'));
    const billing = within(categorySection('Account & Billing'));
    const otherControl = billing.getByRole('button', { name: other.question });
    const firstControl = connection.getByRole('button', { name: first.question });
    const secondControl = connection.getByRole('button', { name: second.question });

    await user.click(otherControl);
    await user.click(firstControl);
    expect(firstControl.getAttribute('aria-expanded')).toBe('true');

    await user.click(secondControl);

    expect(secondControl.getAttribute('aria-expanded')).toBe('true');
    expect(firstControl.getAttribute('aria-expanded')).toBe('false');
    expect(otherControl.getAttribute('aria-expanded')).toBe('true');
    expect((await screen.findByRole('region', { name: other.question })).textContent).toContain(other.answer);
  });

  it('the answer about uptime links to the status page (issue 48)', async () => {
    const user = userEvent.setup();
    renderWithMantine(<SupportPage />);
    await user.click(screen.getByRole('button', { name: 'How reliable is the service?' }));
    const panel = await screen.findByRole('region', { name: 'How reliable is the service?' });
    expect(panel.textContent).toContain('We target 99.9% uptime');
    expect(within(panel).getByRole('link', { name: 'See the server status' })).toHaveAttribute('href', '/status');
  });

  it('offers a contact button that e-mails support', () => {
    renderWithMantine(<SupportPage />);
    const link = screen.getByRole('link', { name: 'Contact Support by Email' });
    expect(link.getAttribute('href')).toBe(`mailto:${brand.supportEmail}`);
    const contact = link.closest('section');
    expect(contact?.textContent).toContain(brand.supportEmail);
  });
});

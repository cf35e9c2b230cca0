import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { RETAINED_DATA } from '../../contract/retention';
import { PrivacyPage } from '../../src/screens/privacy-page';
import { TermsPage } from '../../src/screens/terms-page';
import { brand } from '../../src/config/brand';
import { renderWithMantine } from './render';

function pageText(): string {
  return document.body.textContent ?? '';
}

describe('TermsPage', () => {
  it('shows its title and last-updated date', () => {
    renderWithMantine(<TermsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeDefined();
    expect(screen.getByText('Last updated October 9, 2025')).toBeDefined();
  });

  it('states eligibility, renewal, availability and liability terms', () => {
    renderWithMantine(<TermsPage />);
    const text = pageText();
    expect(text).toContain('18 or older');
    expect(text).toContain('One account per person or organisation');
    expect(text).toContain('24 hours before renewal');
    expect(text).toContain('99.9%');
    expect(text).toContain('last 12 months');
    expect(text).toContain(brand.operator);
  });

  it('links to the privacy policy', () => {
    renderWithMantine(<TermsPage />);
    const link = screen.getByRole('link', { name: 'Read our Privacy Policy' });
    expect(link.getAttribute('href')).toBe('/privacy');
  });
});

describe('PrivacyPage', () => {
  it('shows its title and last-updated date', () => {
    renderWithMantine(<PrivacyPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
    expect(screen.getByText('Last updated October 9, 2025')).toBeDefined();
  });

  it('says what is stored for desktop devices, why, and for how long, and no longer denies timestamps', () => {
    renderWithMantine(<PrivacyPage />);
    const text = pageText();
    expect(text).toContain('we record the name the app gives your computer');
    expect(text).toContain('when that device was first signed in and the day (never the time) its sign-in was last checked with our servers');
    expect(text).toContain('so you can sign out one you no longer use or do not recognise');
    expect(text).toContain('Device and sign-in records (device name, first and last use) are kept while your account exists');
    expect(text).not.toContain('connection timestamps or session durations;');
  });

  it('says what a deleted account leaves behind, for how long, and what the e-mail hash can reveal', () => {
    renderWithMantine(<PrivacyPage />);
    const text = pageText();
    expect(text).toContain(
      'we keep, for a cool-down period of 7 days, a one-way hash of your account identifier and a one-way hash of your e-mail address',
    );
    expect(text).toContain('they are deleted when the 7 days are over');
    expect(text).toContain('For 30 days we also keep a one-way hash of the internal number of the deleted account');
    expect(text).toContain('someone with access to our database who already knows your e-mail address could check it against the hash');
    expect(text).not.toContain('we keep only a one-way hash of your account identifier');
  });

  it('names the operator and gives a support contact', () => {
    renderWithMantine(<PrivacyPage />);
    expect(pageText()).toContain(brand.operator);
    const contact = screen.getByRole('link', { name: brand.supportEmail });
    expect(contact.getAttribute('href')).toBe(`mailto:${brand.supportEmail}`);
  });

  it('shows "What we keep and for how long" as a table, one row per entry of the retention list', () => {
    renderWithMantine(<PrivacyPage />);
    expect(screen.getByRole('heading', { level: 2, name: 'What we keep and for how long' })).toBeDefined();
    const table = screen.getByRole('table', { name: 'What we keep and for how long' });
    const headings = within(table).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headings).toEqual(['What', 'Why', 'How long', 'When you delete your account']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(RETAINED_DATA.length);
    for (const [index, entry] of RETAINED_DATA.entries()) {
      const cells = within(rows[index]!).getAllByRole('cell').map((cell) => cell.textContent);
      expect(within(rows[index]!).getByRole('rowheader').textContent).toBe(entry.what);
      // How long logs and traces are kept is the operator's setting (brand), the rest the list's own words.
      const kept = entry.key === 'logs' ? `${brand.logRetentionDays} days, then deleted` : entry.key === 'traces' ? 'Not collected: tracing is off' : entry.kept;
      expect(cells).toEqual([entry.why, kept, entry.onDeletion]);
    }
  });

  it('states how long production logs are kept, and says tracing is off when no tracing processor is set', () => {
    renderWithMantine(<PrivacyPage />);
    const text = pageText();
    expect(text).toContain(`they are deleted after ${brand.logRetentionDays} days.`);
    expect(text).toContain('Not collected: tracing is off');
    expect(text).not.toContain('performance-tracing provider');
  });

  it('names the tracing backend as a processor, with its retention, when tracing is on', async () => {
    vi.resetModules();
    vi.stubEnv('VITE_TRACING_PROCESSOR', 'Grafana Labs');
    vi.stubEnv('VITE_TRACE_RETENTION_DAYS', '9');
    vi.stubEnv('VITE_LOG_RETENTION_DAYS', '21');
    try {
      const { PrivacyPage: TracedPrivacyPage } = await import('../../src/screens/privacy-page');
      renderWithMantine(<TracedPrivacyPage />);
      const text = pageText();
      expect(text).toContain('they are deleted after 21 days.');
      expect(text).toContain('are sent to Grafana Labs, which processes them on our behalf, and are deleted after 9 days.');
      expect(text).toContain('Grafana Labs, our performance-tracing provider');
      expect(text).toContain('9 days, then deleted');
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});

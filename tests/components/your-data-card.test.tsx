/** Issue 31, item 4: the account page's "Your data" card: the button, what the file holds, and the sign-in again. */
import { describe, expect, test, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { YOUR_DATA_TEXT, YourDataCard, type YourDataCardProps } from '../../src/screens/your-data-card';
import { renderWithMantine } from './render';

function renderCard(props: Partial<YourDataCardProps> = {}) {
  const handlers = { onDownload: vi.fn(), onSignInAgain: vi.fn(), onCancel: vi.fn() };
  renderWithMantine(<YourDataCard busy={false} signInNeeded={false} error={null} saved={null} {...handlers} {...props} />);
  return handlers;
}

describe('YourDataCard', () => {
  test('offers "Download your data" and says in one sentence what the file holds', () => {
    const { onDownload } = renderCard();
    expect(screen.getByRole('heading', { level: 2, name: 'Your data' })).toBeDefined();
    expect(screen.getByText(YOUR_DATA_TEXT)).toBeDefined();
    expect(YOUR_DATA_TEXT).toContain('everything we keep about your account');
    fireEvent.click(screen.getByRole('button', { name: 'Download your data' }));
    expect(onDownload).toHaveBeenCalledOnce();
  });

  test('asks for the sign-in again when the API wants a recent one', () => {
    const { onSignInAgain, onCancel } = renderCard({ signInNeeded: true });
    expect(screen.getByText('For your security, please sign in again to download your data.')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Download your data' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign In Again' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onSignInAgain).toHaveBeenCalledOnce();
    expect(onCancel).toHaveBeenCalledOnce();
  });

  test('shows what went wrong', () => {
    renderCard({ error: 'Too many attempts. Please wait a moment and try again.' });
    expect(screen.getByRole('alert').textContent).toBe('Too many attempts. Please wait a moment and try again.');
  });

  test('after a download, the file it saved and its summary in plain words (issue 45, T16)', () => {
    renderCard({ saved: { fileName: 'veil-vpn-data-2026-11-28.json', summary: ['Subscription: none.', 'Account activity: 3 entries; e-mails sent in the last 7 days: 1.'] } });
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Downloaded veil-vpn-data-2026-11-28.json. In short:');
    expect([...status.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['Subscription: none.', 'Account activity: 3 entries; e-mails sent in the last 7 days: 1.']);
  });
});

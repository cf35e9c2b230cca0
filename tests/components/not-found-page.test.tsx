import { afterEach, describe, expect, test, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { NotFoundPage } from '../../src/screens/not-found-page';
import { renderAtPath } from './render-with-router';

describe('not found page', () => {
  afterEach(() => vi.restoreAllMocks());

  test('shows 404 with a link home and logs the missing path', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await renderAtPath('/no/such/page', null, () => <NotFoundPage />);
    expect(await screen.findByText('404')).toBeInTheDocument();
    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith('404 Error: User attempted to access non-existent route:', '/no/such/page'),
    );
  });
});

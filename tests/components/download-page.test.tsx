import { afterEach, describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { DownloadPage } from '../../src/screens/download-page';
import { SiteHeader } from '../../src/components/site-header';
import { renderAtPath } from './render-with-router';

describe('/download and the download buttons (issue 22 item 3)', () => {
  afterEach(() => vi.unstubAllGlobals());

  test('every platform with its requirement and its own download, the size named once', async () => {
    await renderAtPath('/download', <DownloadPage />);
    expect(await screen.findByRole('heading', { name: 'Download Veil VPN' })).toBeInTheDocument();
    expect(screen.getByText(/about 50 MB of storage/)).toBeInTheDocument();
    for (const [id, name, requirement] of [
      ['macos', 'macOS', 'macOS 11 or later'],
      ['windows', 'Windows', 'Windows 10 or later'],
      ['ios', 'iPhone and iPad', 'iOS 14 or later'],
      ['android', 'Android', 'Android 8 or later'],
    ] as const) {
      const card = screen.getByRole('region', { name });
      expect(card).toHaveAttribute('id', id);
      expect(within(card).getByText(`Requires ${requirement}`)).toBeInTheDocument();
      expect(within(card).getByRole('link', { name: `Download for ${name}` })).toHaveAttribute('href', `https://example.com/download/${id}`);
    }
  });

  test("the header's Download App points at the visitor's platform", async () => {
    vi.stubGlobal('navigator', { ...navigator, userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', maxTouchPoints: 0 });
    await renderAtPath('/', <SiteHeader account={null} onSignOut={() => {}} />);
    expect(await screen.findByRole('link', { name: 'Download App' })).toHaveAttribute('href', '/download#windows');
  });
});

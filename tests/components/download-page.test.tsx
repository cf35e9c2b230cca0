import { afterEach, describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { DownloadPage } from '../../src/screens/download-page';
import { PLATFORMS } from '../../src/config/platforms';
import { unsupportedSystem } from '../../src/config/platform-detect';
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

  test('the visitor\'s system comes first and says so; a Linux visitor is told first to connect with WireGuard (issues 34, 45 item 5)', async () => {
    const windows = PLATFORMS.find((platform) => platform.id === 'windows')!;
    const { unmount } = await renderAtPath('/download', <DownloadPage visitor={windows} />);
    const regions = await screen.findAllByRole('region');
    expect(regions[0]).toHaveAttribute('id', 'windows');
    expect(within(regions[0]!).getByText('Your system')).toBeInTheDocument();
    expect(screen.getAllByText('Your system')).toHaveLength(1);
    unmount();
    await renderAtPath('/download', <DownloadPage unsupported={unsupportedSystem('Mozilla/5.0 (X11; Linux x86_64)')} />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('On Linux? Connect with WireGuard')).toBeInTheDocument();
    expect(alert).toHaveTextContent(/runs on macOS, Windows, iPhone and iPad and Android\. Use WireGuard: on your account page, under Devices, choose "Add a device"/);
    expect(within(alert).getByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/account');
    expect(screen.queryByText(/no app for Linux/)).toBeNull();
    expect(unsupportedSystem('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBeNull();
  });

  test('Linux, routers and other devices: a WireGuard configuration from the account page, for every visitor (issue 45 item 5)', async () => {
    await renderAtPath('/download', <DownloadPage />);
    const card = await screen.findByRole('region', { name: 'Linux, routers and other devices' });
    expect(card).toHaveAttribute('id', 'wireguard');
    expect(card).toHaveTextContent('Use WireGuard: on your account page, under Devices, choose "Add a device" and import the configuration it makes (on Linux with wg-quick, on a router in its WireGuard settings). Each configuration counts as one of your 10 devices.');
    expect(within(card).getByRole('link', { name: 'Add a device on your account page' })).toHaveAttribute('href', '/account');
  });

  test("the header's Download App points at the visitor's platform", async () => {
    vi.stubGlobal('navigator', { ...navigator, userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', maxTouchPoints: 0 });
    await renderAtPath('/', <SiteHeader account={null} onSignOut={() => {}} />);
    expect(await screen.findByRole('link', { name: 'Download App' })).toHaveAttribute('href', '/download#windows');
  });
});

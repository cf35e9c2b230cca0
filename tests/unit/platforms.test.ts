/** Downloads by system (issue 22 item 3): which platform a visitor is on, and where their download button leads. */
import { describe, expect, test } from 'vitest';
import { PLATFORMS } from '../../src/config/platforms';
import { detectPlatform, downloadHref } from '../../src/config/platform-detect';

const UA = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

describe('platform detection', () => {
  test.each([
    [UA.windows, 0, 'windows'],
    [UA.mac, 0, 'macos'],
    // iPadOS asks for the desktop site: a "Macintosh" with a touch screen.
    [UA.mac, 5, 'ios'],
    [UA.iphone, 5, 'ios'],
    [UA.android, 5, 'android'],
    [UA.linux, 0, null],
  ] as const)('%s (touch points %d) -> %s', (userAgent, touchPoints, platform) => {
    expect(detectPlatform(userAgent, touchPoints)).toBe(platform);
  });

  test('desktops go to their section of /download, phones to their own store, others to the whole list', () => {
    expect(downloadHref('windows')).toBe('/download#windows');
    expect(downloadHref('macos')).toBe('/download#macos');
    expect(downloadHref('ios')).toBe('https://example.com/download/ios');
    expect(downloadHref('android')).toBe('https://example.com/download/android');
    expect(downloadHref(null)).toBe('/download');
  });

  test('every platform the spec names, with its requirement and its own URL', () => {
    expect(PLATFORMS.map((platform) => platform.requirement)).toEqual([
      'macOS 11 or later',
      'Windows 10 or later',
      'iOS 14 or later',
      'Android 8 or later',
    ]);
    expect(new Set(PLATFORMS.map((platform) => platform.url)).size).toBe(4);
  });
});

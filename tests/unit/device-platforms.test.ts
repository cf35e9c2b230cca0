/** Issue 45 item 3: the platform "Add a device" preselects, from the visitor's system or remembered per device. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preferredPlatform, rememberPlatform, visitorWireguardPlatform } from '../../src/services/device-platforms';

const UA = {
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  chromeos: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
};

function browser(userAgent: string) {
  const stored = new Map<string, string>();
  vi.stubGlobal('navigator', { userAgent, maxTouchPoints: 0 });
  vi.stubGlobal('window', { localStorage: { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => stored.set(key, value) } });
  return stored;
}

afterEach(() => vi.unstubAllGlobals());

describe('the platform to preselect', () => {
  it("is the visitor's system: a phone's, a computer's, Linux; none for a system we cannot tell", () => {
    expect(visitorWireguardPlatform(UA.android)).toBe('android');
    expect(visitorWireguardPlatform(UA.iphone)).toBe('ios');
    expect(visitorWireguardPlatform(UA.windows)).toBe('windows');
    expect(visitorWireguardPlatform(UA.linux)).toBe('linux');
    expect(visitorWireguardPlatform(UA.chromeos)).toBeNull();
  });

  it('for a device whose platform was chosen in this browser, that one (Replace key); others keep the system', () => {
    const stored = browser(UA.android);
    expect(preferredPlatform(null)).toBe('android');
    rememberPlatform('wgk_1', 'router');
    expect(preferredPlatform('wgk_1')).toBe('router');
    expect(preferredPlatform('wgk_2')).toBe('android');
    // Nothing but ids and platform names is kept; anything else read back is ignored.
    stored.set('veil.wireguard.platforms', JSON.stringify({ wgk_1: 'router', wgk_3: 'toaster' }));
    expect(preferredPlatform('wgk_3')).toBe('android');
    stored.set('veil.wireguard.platforms', 'not json');
    expect(preferredPlatform('wgk_1')).toBe('android');
  });
});

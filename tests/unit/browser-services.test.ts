import { describe, expect, test } from 'vitest';
import { MissingConfigurationError, readClientConfig } from '../../src/services/client-config';
import { isDesktopUserAgent } from '../../src/services/device';
import { destinationFor, safeReturnPath } from '../../src/services/navigation';
import { redactTokens } from '../../src/app/actors/inspector';

const UA = {
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
};

describe('desktop detection (spec §1)', () => {
  test.each([
    ['mac', true],
    ['windows', true],
    ['linux', true],
    ['android', false],
    ['iphone', false],
    ['ipad', false],
  ] as const)('%s -> %s', (name, expected) => {
    expect(isDesktopUserAgent(UA[name])).toBe(expected);
  });

  test('iPadOS Safari (a Mac user agent with several touch points) is a tablet, not a desktop', () => {
    expect(isDesktopUserAgent(UA.mac, 5)).toBe(false);
    expect(isDesktopUserAgent(UA.mac, 0)).toBe(true);
    // A Windows laptop with a touch screen is still a desktop.
    expect(isDesktopUserAgent(UA.windows, 10)).toBe(true);
  });
});

function docWith(json: string | null) {
  return { getElementById: () => (json === null ? null : { textContent: json }) } as unknown as Document;
}

describe('client configuration (spec §5)', () => {
  const complete = { apiKey: 'k', authDomain: 'd.firebaseapp.com', projectId: 'demo-veil' };

  test('a complete configuration is read, with the emulator when given', () => {
    expect(readClientConfig(docWith(JSON.stringify({ firebase: { ...complete, emulatorUrl: 'http://127.0.0.1:9099' } })))).toEqual({
      firebase: { ...complete, emulatorUrl: 'http://127.0.0.1:9099' },
    });
  });

  test('any empty value is a missing-configuration error naming it', () => {
    expect(() => readClientConfig(docWith(JSON.stringify({ firebase: { ...complete, apiKey: ' ' } })))).toThrow(
      'Missing Firebase configuration: apiKey',
    );
    expect(() => readClientConfig(docWith(null))).toThrow(MissingConfigurationError);
    expect(() => readClientConfig(docWith('{not json'))).toThrow('apiKey, authDomain, projectId');
  });
});

describe('return path after sign-in', () => {
  const origin = 'https://veil.example';
  test('a same-origin path from ?redirect= wins over /account and /subscribe', () => {
    expect(safeReturnPath('?redirect=%2Faccount%3Ftab%3D1', origin)).toBe('/account?tab=1');
    expect(destinationFor({ to: '/subscribe' }, { search: '?redirect=/account', origin })).toBe('/account');
    expect(destinationFor({ to: '/signin' }, { search: '?redirect=/account', origin })).toBe('/signin');
    // An expired session sends the customer to sign in again, then back to the page they were on.
    expect(destinationFor({ to: '/signin', redirect: '/account?x=1' }, { search: '', origin })).toBe(
      '/signin?redirect=%2Faccount%3Fx%3D1',
    );
  });
  test('other origins and protocol-relative paths are ignored', () => {
    expect(safeReturnPath('?redirect=https://evil.example/x', origin)).toBeNull();
    expect(safeReturnPath('?redirect=//evil.example/x', origin)).toBeNull();
    expect(destinationFor({ to: '/account' }, { search: '?redirect=//evil.example', origin })).toBe('/account');
  });
});

describe('inspector sanitising', () => {
  test('every token-named value is redacted at any depth', () => {
    expect(
      redactTokens({ sessionToken: 's', user: { email: 'a@b.c' }, list: [{ idToken: 'x', handoffToken: 'h' }] }),
    ).toEqual({ sessionToken: '[redacted]', user: { email: 'a@b.c' }, list: [{ idToken: '[redacted]', handoffToken: '[redacted]' }] });
  });
});

describe('client configuration handed over by the server', async () => {
  const { clientConfigFromEnv, injectClientConfig } = await import('../../contract/client-config');

  test('with the emulator, demo values fill the gaps', () => {
    expect(clientConfigFromEnv({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).toEqual({
      firebase: { apiKey: 'demo-api-key', authDomain: 'demo-veil.firebaseapp.com', projectId: 'demo-veil', emulatorUrl: 'http://127.0.0.1:9099' },
    });
  });

  test('without it nothing is invented, and an explicit empty value stays empty', () => {
    expect(clientConfigFromEnv({ FIREBASE_PROJECT_ID: 'veil-prod' }).firebase).toEqual({ apiKey: '', authDomain: '', projectId: 'veil-prod' });
    expect(clientConfigFromEnv({ FIREBASE_AUTH_EMULATOR_HOST: 'h:1', FIREBASE_API_KEY: '' }).firebase.apiKey).toBe('');
  });

  test('the injected element round-trips through the SPA reader and cannot break out of its tag', () => {
    const config = { firebase: { apiKey: '</script><script>alert(1)</script>', authDomain: 'a', projectId: 'p' } };
    const html = injectClientConfig('<html><head></head><body></body></html>', config);
    expect(html).not.toContain('</script><script>');
    const json = /<script id="client-config" type="application\/json">(.*)<\/script>/.exec(html)![1]!;
    expect(readClientConfig(docWith(json))).toEqual(config);
  });
});

/** A release build refuses the example.com placeholders (issue 22 item 12); local builds may keep them. */
import { describe, expect, test } from 'vitest';
import { placeholderRefusal } from '../../scripts/lib/placeholder-urls';

const real = {
  VITE_DOWNLOAD_URL_MACOS: 'https://downloads.veilvpn.app/mac/VeilVPN.dmg',
  VITE_DOWNLOAD_URL_WINDOWS: 'https://downloads.veilvpn.app/win/VeilVPN.msi',
  VITE_DOWNLOAD_URL_IOS: 'https://apps.apple.com/app/id000000000',
  VITE_DOWNLOAD_URL_ANDROID: 'https://play.google.com/store/apps/details?id=app.veilvpn',
  VITE_LEARN_MORE_URL: 'https://forms.veilvpn.app/learn-more',
  VITE_SUPPORT_EMAIL: 'support@veilvpn.app',
};

describe('placeholder addresses in a production build', () => {
  test('the defaults are refused, naming every variable to set', () => {
    const refusal = placeholderRefusal({});
    expect(refusal).toMatch(/^Refusing to build the website with placeholder \(example\.com\) addresses/);
    for (const variable of Object.keys(real)) expect(refusal).toContain(variable);
  });

  test('one placeholder left is refused by name', () => {
    expect(placeholderRefusal({ ...real, VITE_DOWNLOAD_URL_IOS: 'https://example.com/ios' })).toContain('set VITE_DOWNLOAD_URL_IOS (');
  });

  test('real addresses pass; so does a local build that says so', () => {
    expect(placeholderRefusal(real)).toBeNull();
    expect(placeholderRefusal({ ALLOW_PLACEHOLDER_URLS: 'true' })).toBeNull();
    // A real domain that merely contains the word is not a placeholder.
    expect(placeholderRefusal({ ...real, VITE_LEARN_MORE_URL: 'https://notexample.company/form' })).toBeNull();
  });
});

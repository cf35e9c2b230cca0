/**
 * Issue 29 in Chromium, as a customer does it: "Add a device" on the account page makes a WireGuard
 * configuration in the browser. The configuration on the page holds a private key whose X25519 public key
 * (Node's crypto, design §9) is the one the device list shows; no request the page made carried the private
 * key; the form, a failure and the QR code and .conf download are axe clean at 390 and 1280 px, light and dark; then
 * the device is removed and its key leaves the relay API's peer list.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, saveScreenshot, transitionsSettled } from '../support/browser';
import { geometryProblems } from '../support/geometry';
import { useWholeStack } from '../support/e2e-suite';
import { signInWithPopup, storageKey } from '../support/emulator-ui';
import { sendSubscriptionEvent, userIdOf } from '../support/payments';

const RELAY_TOKEN = 'relay-token-for-the-journey-0123456789abcdef';
const e2e = useWholeStack({}, { RELAY_TOKENS: `e2e-relay:${RELAY_TOKEN}` });

const VARIANTS = [
  { width: 390, height: 844, colorScheme: 'light' },
  { width: 390, height: 844, colorScheme: 'dark' },
  { width: 1280, height: 800, colorScheme: 'light' },
  { width: 1280, height: 800, colorScheme: 'dark' },
] as const;

/** The X25519 public key of a raw base64 private key, with Node's own crypto. */
function publicKeyOf(privateKeyBase64: string): string {
  const der = Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), Buffer.from(privateKeyBase64, 'base64')]);
  return createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64');
}

async function listedKeys(): Promise<string[]> {
  const response = await fetch(`${e2e.stack.url}/api/relay/v1/peers`, { headers: { authorization: `Bearer ${RELAY_TOKEN}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { peers: Array<{ publicKey: string }> }).peers.map((peer) => peer.publicKey);
}

async function show(page: Page, { width, height, colorScheme }: (typeof VARIANTS)[number]) {
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme });
  await expect.poll(() => page.getAttribute('html', 'data-mantine-color-scheme')).toBe(colorScheme);
  await transitionsSettled(page);
}

describe('a WireGuard configuration made on the account page', () => {
  test('add a device, read its configuration, X25519 matches the listed key, no request carried the private key, QR and download, remove it', async () => {
    const { page } = await e2e.signedInContext('wireguard.customer@example.com');
    const userId = await userIdOf(e2e.stack.url, (await storageKey(page, 'sessionToken'))!);
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'active' })).status).toBe(200);

    // Every request the page makes from here on, with its URL and body.
    const sent: string[] = [];
    page.on('request', (request) => sent.push(`${request.method()} ${request.url()}\n${request.postData() ?? ''}`));

    await page.goto(`${e2e.stack.url}/account`);
    const devices = page.getByRole('region', { name: 'Devices' });
    await devices.getByText(/ChaCha20-Poly1305/).waitFor();
    await devices.getByRole('button', { name: 'Add a device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a device' });
    const choose = async () => {
      await dialog.getByRole('textbox', { name: 'Device name' }).fill('Pixel phone');
      await dialog.getByRole('combobox', { name: 'Platform' }).click();
      await page.getByRole('option', { name: 'Android' }).click();
      await dialog.getByRole('combobox', { name: 'Server' }).click();
      // Issue 48 item 3: each server says its state; no relay reports here, so each says it is offline.
      await page.getByRole('option', { name: 'Lagos, Nigeria — offline' }).click();
    };
    await choose();
    await dialog.getByText('Lagos is offline right now. This configuration will connect once it is back.').waitFor();
    // The form, filled in: every variant axe clean.
    for (const variant of VARIANTS) {
      await show(page, variant);
      await saveScreenshot(page, `wireguard-form-${variant.width}-${variant.colorScheme}`, { fullPage: false });
      // Issue 45 item 1: fields and chevrons of their size, and Add device on the first screen.
      expect(await geometryProblems(page, { primaryAction: 'Add device' }), `the form at ${variant.width} ${variant.colorScheme}`).toEqual([]);
      expect(await axeViolations(page), `axe on the form at ${variant.width} ${variant.colorScheme}`).toEqual([]);
    }

    // The API out of reach: the failure says so, axe clean in every variant, and Try again goes back to the form.
    const unreachable = '**/api/vpn/devices';
    await page.route(unreachable, (route) => route.abort('connectionfailed'));
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The device was not added' }).waitFor();
    for (const variant of VARIANTS) {
      await show(page, variant);
      await saveScreenshot(page, `wireguard-failed-${variant.width}-${variant.colorScheme}`, { fullPage: false });
      expect(await geometryProblems(page, { primaryAction: 'Try again' }), `the failure at ${variant.width} ${variant.colorScheme}`).toEqual([]);
      expect(await axeViolations(page), `axe on the failure at ${variant.width} ${variant.colorScheme}`).toEqual([]);
    }
    await page.unroute(unreachable);
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await choose();
    await dialog.getByRole('button', { name: 'Add device' }).click();

    const configText = (await dialog.getByTestId('wireguard-config').textContent()) ?? '';
    const privateKey = /^PrivateKey = (\S+)$/m.exec(configText)?.[1] ?? '';
    expect(Buffer.from(privateKey, 'base64')).toHaveLength(32);
    expect(configText).toContain('Endpoint = 198.51.100.20:51820');
    expect(configText).toContain('AllowedIPs = 0.0.0.0/0, ::/0');
    await dialog.getByText('In the WireGuard app tap "+", then "Scan from QR code"', { exact: false }).waitFor();
    await dialog.getByText('We do not keep your private key', { exact: false }).waitFor();
    await dialog.getByRole('img', { name: 'QR code of the WireGuard configuration' }).waitFor();
    expect(await dialog.getByRole('link', { name: 'Download .conf' }).getAttribute('download')).toBe('Pixel-phone.conf');

    for (const variant of VARIANTS) {
      await show(page, variant);
      await dialog.getByRole('img', { name: 'QR code of the WireGuard configuration' }).waitFor();
      await saveScreenshot(page, `wireguard-shown-${variant.width}-${variant.colorScheme}`, { fullPage: false });
      // Longer than a screen: no primary action to find on it, but no giant control and no sideways scroll.
      expect(await geometryProblems(page), `the configuration at ${variant.width} ${variant.colorScheme}`).toEqual([]);
      expect(await axeViolations(page), `axe at ${variant.width} ${variant.colorScheme}`).toEqual([]);
    }

    // The device list shows the public key the browser derived; X25519 of the private key is that key.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    const listed = (await devices.getByTestId('device-public-key').textContent()) ?? '';
    const publicKey = /Public key (\S+)/.exec(listed)?.[1] ?? '';
    expect(publicKeyOf(privateKey)).toBe(publicKey);
    expect(sent.some((request) => request.includes('/api/vpn/devices') && request.includes(publicKey))).toBe(true);
    // No request of the page carried the private key (in its URL or body, in any encoding a form would use).
    for (const request of sent) {
      expect(request.includes(privateKey) || request.includes(encodeURIComponent(privateKey)), request.split('\n')[0]).toBe(false);
    }
    // The configuration is gone once closed: shown once.
    expect(await page.getByText(privateKey).count()).toBe(0);

    for (const variant of VARIANTS) {
      await show(page, variant);
      expect(await axeViolations(page), `axe on the list at ${variant.width} ${variant.colorScheme}`).toEqual([]);
    }

    expect(await listedKeys()).toContain(publicKey);
    // Issue 45 item 6: Remove asks first and says what happens; Cancel keeps the device.
    await devices.getByRole('button', { name: 'Remove Pixel phone' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Pixel phone?' });
    await confirm.getByText(/its configuration stops working at once/).waitFor();
    for (const variant of VARIANTS) {
      await show(page, variant);
      await saveScreenshot(page, `wireguard-remove-${variant.width}-${variant.colorScheme}`, { fullPage: false });
      expect(await geometryProblems(page, { primaryAction: 'Remove device' }), `the removal at ${variant.width} ${variant.colorScheme}`).toEqual([]);
      expect(await axeViolations(page), `axe on the removal at ${variant.width} ${variant.colorScheme}`).toEqual([]);
    }
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await listedKeys()).toContain(publicKey);
    await devices.getByRole('button', { name: 'Remove Pixel phone' }).click();
    await confirm.getByRole('button', { name: 'Remove device' }).click();
    // Issue 47 item 2: confirmed by every server (here none has a relay token, so at once).
    const removed = page.locator('.mantine-Notification-root').filter({ hasText: 'Device removed' });
    await removed.getByText('Removed from every server.').waitFor();
    for (const variant of VARIANTS) {
      await show(page, variant);
      await saveScreenshot(page, `wireguard-removed-${variant.width}-${variant.colorScheme}`, { fullPage: false });
    }
    await expect.poll(() => devices.getByText('Pixel phone').count()).toBe(0);
    expect(await listedKeys()).not.toContain(publicKey);
    await page.getByRole('region', { name: 'Account activity' }).getByText('Device removed: Pixel phone').waitFor();
  }, 180_000);

  // Issue 45 item 3: on a phone, the phone's steps. The platform is the phone's own; the file import leads and the
  // QR code waits under "Setting up another device?"; a platform chosen for a device is preselected by its Replace key.
  test('on an Android phone: Android preselected, the file first, the QR under "Setting up another device?", Replace key remembers the platform', async () => {
    const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36';
    // Signed in as on a phone: the account menu sits in the phone's menu, so the sign-in's landing page is awaited.
    const { context } = await e2e.newContext({ viewport: { width: 390, height: 844 }, userAgent: android, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${e2e.stack.url}/signin`);
    await signInWithPopup(context, page, 'wireguard.phone@example.com');
    await page.waitForURL(`${e2e.stack.url}/subscribe`);
    const userId = await userIdOf(e2e.stack.url, (await storageKey(page, 'sessionToken'))!);
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'active' })).status).toBe(200);
    await page.goto(`${e2e.stack.url}/account`);
    const devices = page.getByRole('region', { name: 'Devices' });
    await devices.getByRole('button', { name: 'Add a device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a device' });
    expect(await dialog.getByRole('combobox', { name: 'Platform' }).inputValue()).toBe('Android');
    // Named already: from payment to the file is Manage Account, Add a device, Add device, Download .conf.
    expect(await dialog.getByRole('textbox', { name: 'Device name' }).inputValue()).toBe('Android phone');
    await dialog.getByRole('textbox', { name: 'Device name' }).fill('This phone');
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await dialog.getByText('Tap "Download .conf", then in the WireGuard app tap "+", then "Import from file or archive", and pick the file.').waitFor();
    const another = dialog.getByRole('region', { name: 'Setting up another device?' });
    await another.getByRole('img', { name: 'QR code of the WireGuard configuration' }).waitFor();
    // The download within the first screen, the QR code below the file.
    const download = (await dialog.getByRole('link', { name: 'Download .conf' }).boundingBox())!;
    expect(download.y + download.height).toBeLessThanOrEqual(844);
    const file = (await dialog.getByTestId('wireguard-config').boundingBox())!;
    expect((await another.boundingBox())!.y).toBeGreaterThan(file.y);
    for (const colorScheme of ['light', 'dark'] as const) {
      await show(page, { width: 390, height: 844, colorScheme });
      await saveScreenshot(page, `wireguard-phone-shown-390-${colorScheme}`, { fullPage: false });
      expect(await geometryProblems(page, { primaryAction: 'Download .conf' }), colorScheme).toEqual([]);
      expect(await axeViolations(page), `axe on the phone's configuration (${colorScheme})`).toEqual([]);
    }
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A router added from the phone: its Replace key preselects Router, not the phone's system.
    await devices.getByRole('button', { name: 'Add a device' }).click();
    await dialog.getByRole('textbox', { name: 'Device name' }).fill('Home router');
    await dialog.getByRole('combobox', { name: 'Platform' }).click();
    await page.getByRole('option', { name: 'Router' }).click();
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await devices.getByRole('button', { name: 'Replace key for Home router' }).click();
    const replace = page.getByRole('dialog', { name: 'Replace the key of Home router' });
    expect(await replace.getByRole('combobox', { name: 'Platform' }).inputValue()).toBe('Router');
    await replace.getByRole('button', { name: 'Close dialog' }).click();
    await devices.getByRole('button', { name: 'Replace key for This phone' }).click();
    const replaceThis = page.getByRole('dialog', { name: 'Replace the key of This phone' });
    expect(await replaceThis.getByRole('combobox', { name: 'Platform' }).inputValue()).toBe('Android');

    // Issue 46 item 9: a new key in a device's place wants a sign-in within 10 minutes, as adding one does; the
    // page sends the provider's ID token of this sign-in, so the new key is made without asking again.
    const keysBefore = await devices.getByTestId('device-public-key').allTextContents();
    await replaceThis.getByRole('button', { name: 'Make a new key' }).click();
    await replaceThis.getByTestId('wireguard-config').waitFor();
    expect(await replaceThis.getByText(/please sign in again/).count()).toBe(0);
    const newKey = /^PrivateKey = (\S+)$/m.exec((await replaceThis.getByTestId('wireguard-config').textContent()) ?? '')?.[1] ?? '';
    await replaceThis.getByRole('button', { name: 'Done' }).click();
    await replaceThis.waitFor({ state: 'detached' });
    await expect.poll(async () => (await devices.getByTestId('device-public-key').allTextContents()).some((line) => line.includes(publicKeyOf(newKey)))).toBe(true);
    expect(await devices.getByTestId('device-public-key').allTextContents()).not.toEqual(keysBefore);
  }, 180_000);

  // Issue 45 item 2: devices tell the truth about access.
  test('an ended plan: "Subscribe to connect devices", each device "Not connecting: plan ended" (and off the peer list); unpaid (the retries ended): "paused until payment"', async () => {
    const { page } = await e2e.signedInContext('wireguard.lapsed@example.com');
    const sessionToken = (await storageKey(page, 'sessionToken'))!;
    const userId = await userIdOf(e2e.stack.url, sessionToken);
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'active' })).status).toBe(200);
    // The device added as a customer adds one (the API wants a recent sign-in's ID token, which the page sends).
    await page.goto(`${e2e.stack.url}/account`);
    const devices = page.getByRole('region', { name: 'Devices' });
    await devices.getByRole('button', { name: 'Add a device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a device' });
    await dialog.getByRole('textbox', { name: 'Device name' }).fill('Home router');
    await dialog.getByRole('button', { name: 'Add device' }).click();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    const publicKey = /Public key (\S+)/.exec((await devices.getByTestId('device-public-key').textContent()) ?? '')?.[1] ?? '';
    expect(await listedKeys()).toContain(publicKey);

    // Ended (the customer's plan ran out, or was refunded): the key is off the relays' list, and the page says so.
    expect((await sendSubscriptionEvent(e2e.stack.url, { userId, status: 'cancelled', cancelAtPeriodEnd: true, periodEnd: new Date(Date.now() - 86_400_000) })).status).toBe(200);
    expect(await listedKeys()).not.toContain(publicKey);
    await page.reload();
    await devices.getByText('Not connecting: plan ended').waitFor();
    expect(await devices.getByRole('link', { name: 'Subscribe to connect devices' }).getAttribute('href')).toBe('/subscribe');
    expect(await devices.getByRole('button', { name: 'Add a device' }).count()).toBe(0);
    await devices.scrollIntoViewIfNeeded();
    for (const variant of VARIANTS) {
      await show(page, variant);
      await devices.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `wireguard-plan-ended-${variant.width}-${variant.colorScheme}`, { fullPage: false });
      expect(await geometryProblems(page, { within: 'section[aria-labelledby="devices-title"]' }), `${variant.width} ${variant.colorScheme}`).toEqual([]);
      expect(await axeViolations(page), `axe on the ended devices at ${variant.width} ${variant.colorScheme}`).toEqual([]);
    }

    // A renewal whose retries ended unpaid (Stripe's `unpaid`, issue 46 item 2), days before its pay-by day: the API
    // says so (`unpaid`), so the page says paused until payment, not "keeps working" (a plan of its own: an ended one stays ended).
    const pastDue = { userId, subscriptionId: `sub_test_${userId}_renewed` };
    expect((await sendSubscriptionEvent(e2e.stack.url, { ...pastDue, status: 'active' })).status).toBe(200);
    expect((await sendSubscriptionEvent(e2e.stack.url, { ...pastDue, status: 'unpaid', periodEnd: new Date(Date.now() - 5 * 86_400_000) })).status).toBe(200);
    await page.reload();
    await devices.getByText('Not connecting: paused until payment').waitFor();
    expect(await devices.getByRole('button', { name: 'Add a device' }).count()).toBe(0);
    const subscriptionCard = page.getByRole('region', { name: 'Subscription Status' });
    await subscriptionCard.getByText(/We have stopped trying the payment, so your VPN is paused until payment\./).waitFor();
    expect(await subscriptionCard.getByText(/keeps working/).count()).toBe(0);
    expect(await listedKeys()).not.toContain(publicKey);
    await show(page, VARIANTS[3]);
    await devices.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'wireguard-paused-1280-dark', { fullPage: false });
    expect(await axeViolations(page), 'axe on the paused devices').toEqual([]);
  }, 180_000);
});

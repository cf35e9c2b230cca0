/**
 * "Add a device" (issue 29, item 4): the form sends a name, a platform and a server; the configuration is
 * shown once as text (the file the WireGuard apps import) with Copy, Download (.conf) and a QR code, the
 * platform's next step and the warning that the private key is not kept; a failure says why and offers
 * Try again.
 */
import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEMO_CATALOGUE } from '../../server/vpn/catalogue';
import { AddDeviceDialog, type AddDeviceDialogProps } from '../../src/screens/add-device-dialog';
import { PLATFORMS } from '../../machines/wireguard-config';
import { renderWithMantine } from './render';

const servers = DEMO_CATALOGUE.servers;
const device = { id: 'wgk_1', kind: 'wireguard' as const, name: 'Home router', publicKey: 'G8arjbiZ2lErtbJZgeRirmxED+XvVUQw67DAHCq1BDM=', ipv4Address: '10.64.0.2', ipv6Address: 'fd76:6569:6c00::2', createdAt: '2026-11-26T10:00:00Z' };
const PRIVATE_KEY = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=';

function props(overrides: Partial<AddDeviceDialogProps>): AddDeviceDialogProps {
  return {
    stage: 'choosing',
    mode: 'add',
    name: '',
    platform: 'windows',
    serverId: null,
    servers,
    privateKey: null,
    device: null,
    error: null,
    signingIn: false,
    onSubmit: vi.fn(),
    onRetry: vi.fn(),
    onSignInAgain: vi.fn(),
    onClose: vi.fn(),
    ...overrides,
  };
}

describe('Add a device', () => {
  test('the form sends the name, the platform and the server chosen (by city and country)', async () => {
    const onSubmit = vi.fn();
    renderWithMantine(<AddDeviceDialog {...props({ onSubmit })} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
    expect(dialog.getByText(/ChaCha20-Poly1305/)).toBeInTheDocument();
    const user = userEvent.setup();
    // Named after the platform preselected, so on a phone one tap adds it (issue 45).
    expect(dialog.getByRole('textbox', { name: 'Device name' })).toHaveValue('Windows PC');
    await user.clear(dialog.getByRole('textbox', { name: 'Device name' }));
    expect(dialog.getByRole('button', { name: 'Add device' })).toBeDisabled();
    await user.type(dialog.getByRole('textbox', { name: 'Device name' }), '  Home router ');
    await user.click(dialog.getByRole('combobox', { name: 'Platform' }));
    await user.click(await screen.findByRole('option', { name: 'Router' }));
    await user.click(dialog.getByRole('combobox', { name: 'Server' }));
    await user.click(await screen.findByRole('option', { name: 'Lagos, Nigeria' }));
    await user.click(dialog.getByRole('button', { name: 'Add device' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Home router', platform: 'router', serverId: 'ng-lagos-1' });
  });

  test('each server says its state and load; the least-loaded online one is preselected; an offline one says so, and choosing it warns (issue 48 item 3)', async () => {
    const [nyc, lagos] = servers;
    const withStatus = [
      { ...nyc!, status: { state: 'online' as const, load: 62 } },
      { ...nyc!, id: 'us-nyc-2', status: { state: 'online' as const, load: 18 } },
      { ...lagos!, status: { state: 'offline' as const, load: 0 } },
    ];
    const onSubmit = vi.fn();
    renderWithMantine(<AddDeviceDialog {...props({ servers: withStatus, onSubmit })} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
    expect(dialog.getByRole('combobox', { name: 'Server' })).toHaveValue('New York, United States — load 18%');
    expect(dialog.queryByText(/can't load the server status/)).toBeNull();
    const user = userEvent.setup();
    await user.click(dialog.getByRole('combobox', { name: 'Server' }));
    expect(await screen.findByRole('option', { name: 'New York, United States — load 62%' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'New York, United States — load 62%' }));
    expect(dialog.queryByTestId('server-down')).toBeNull();
    await user.clear(dialog.getByRole('textbox', { name: 'Device name' }));
    await user.type(dialog.getByRole('textbox', { name: 'Device name' }), 'Phone');
    await user.click(dialog.getByRole('combobox', { name: 'Server' }));
    await user.click(await screen.findByRole('option', { name: 'Lagos, Nigeria — offline' }));
    expect(dialog.getByTestId('server-down')).toHaveTextContent('Lagos is offline right now. This configuration will connect once it is back.');
    await user.click(dialog.getByRole('button', { name: 'Add device' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Phone', platform: 'windows', serverId: 'ng-lagos-1' });
  });

  test('a status that could not be loaded does not block the choice: every server is offered, the field says why it shows no state', async () => {
    renderWithMantine(<AddDeviceDialog {...props({})} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
    expect(dialog.getByRole('combobox', { name: 'Server' })).toHaveValue('New York, United States');
    expect(dialog.getByText("We can't load the server status right now.")).toBeInTheDocument();
    expect(dialog.queryByTestId('server-down')).toBeNull();
  });

  test('under maintenance: the option says so, and so does the warning once chosen', async () => {
    const [nyc, lagos] = servers;
    const withStatus = [{ ...nyc!, status: { state: 'online' as const, load: 40 } }, { ...lagos!, status: { state: 'maintenance' as const, load: 0 } }];
    renderWithMantine(<AddDeviceDialog {...props({ servers: withStatus, serverId: 'ng-lagos-1' })} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
    expect(dialog.getByRole('combobox', { name: 'Server' })).toHaveValue('Lagos, Nigeria — maintenance');
    expect(dialog.getByTestId('server-down')).toHaveTextContent('Lagos is under maintenance right now.');
  });

  test('the configuration is shown once: the file, Copy, Download .conf, the QR code, the next step and the warning', async () => {
    renderWithMantine(<AddDeviceDialog {...props({ stage: 'shown', name: 'Home router', platform: 'ios', serverId: 'us-nyc-1', privateKey: PRIVATE_KEY, device })} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
    expect(dialog.getByTestId('wireguard-config').textContent).toBe(
      [
        '[Interface]',
        `PrivateKey = ${PRIVATE_KEY}`,
        'Address = 10.64.0.2/32, fd76:6569:6c00::2/128',
        'DNS = 10.64.0.1, fd76:6569:6c00::1',
        '',
        '[Peer]',
        'PublicKey = JRvNKoxqtv74Qb4fnNzUOAiNl9GcMDHaFNTWAYDgPA8=',
        'AllowedIPs = 0.0.0.0/0, ::/0',
        'Endpoint = 192.0.2.10:51820',
        'PersistentKeepalive = 25',
        '',
      ].join('\n'),
    );
    expect(dialog.getByText(/We do not keep your private key, so this configuration will not be shown again/)).toBeInTheDocument();
    expect(dialog.getByText(/scan the code below/)).toBeInTheDocument();
    const download = dialog.getByRole('link', { name: 'Download .conf' });
    expect(download).toHaveAttribute('download', 'Home-router.conf');
    expect(decodeURIComponent(download.getAttribute('href')!)).toContain(`PrivateKey = ${PRIVATE_KEY}`);
    expect(dialog.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(await dialog.findByRole('img', { name: 'QR code of the WireGuard configuration' })).toBeInTheDocument();
  });

  test('a phone scans the QR code: it comes right after "scan the code below"; a computer imports the file, which comes first', async () => {
    const precedes = (first: Element, second: Element) => Boolean(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING);
    for (const [platform, qrFirst] of [['android', true], ['ios', true], ['windows', false], ['router', false]] as const) {
      const view = renderWithMantine(<AddDeviceDialog {...props({ stage: 'shown', name: 'Pixel', platform, serverId: 'us-nyc-1', privateKey: PRIVATE_KEY, device })} />);
      const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
      const qr = await dialog.findByRole('img', { name: 'QR code of the WireGuard configuration' });
      expect(precedes(qr, dialog.getByTestId('wireguard-config')), platform).toBe(qrFirst);
      expect(precedes(dialog.getByText(PLATFORMS[platform].nextStep), qr), platform).toBe(true);
      view.unmount();
    }
  });

  // Issue 45 item 3: a phone cannot scan its own screen.
  test('on a phone setting up itself, the file import leads and the QR code sits under "Setting up another device?"', async () => {
    const precedes = (first: Element, second: Element) => Boolean(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING);
    for (const platform of ['android', 'ios'] as const) {
      const view = renderWithMantine(<AddDeviceDialog {...props({ stage: 'shown', name: 'Pixel', platform, serverId: 'us-nyc-1', privateKey: PRIVATE_KEY, device, onPhone: true })} />);
      const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
      const step = dialog.getByText(PLATFORMS[platform].onThisPhone);
      expect(dialog.queryByText(/scan the code below/)).toBeNull();
      const download = dialog.getByRole('link', { name: 'Download .conf' });
      const another = dialog.getByRole('region', { name: 'Setting up another device?' });
      const qr = await within(another).findByRole('img', { name: 'QR code of the WireGuard configuration' });
      expect(precedes(step, download), platform).toBe(true);
      expect(precedes(download, dialog.getByTestId('wireguard-config')), platform).toBe(true);
      expect(precedes(dialog.getByTestId('wireguard-config'), qr), platform).toBe(true);
      view.unmount();
    }
  });

  test('the Linux step says wg-quick needs resolvconf for DNS', () => {
    expect(PLATFORMS.linux.nextStep).toContain('wg-quick needs resolvconf for the DNS line');
  });

  test('a failure says why and offers Try again', async () => {
    const onRetry = vi.fn();
    renderWithMantine(<AddDeviceDialog {...props({ stage: 'failed', error: 'This key is already in use.', onRetry })} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
    expect(dialog.getByRole('alert')).toHaveTextContent('This key is already in use.');
    await userEvent.setup().click(dialog.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalled();
  });
});

describe('Add a device: a sign-in within 10 minutes (issue 46, item 9)', () => {
  test('the dialog asks to sign in again in place, with Sign In Again and Cancel', async () => {
    const onSignInAgain = vi.fn();
    const onClose = vi.fn();
    renderWithMantine(<AddDeviceDialog {...props({ stage: 'signInNeeded', onSignInAgain, onClose })} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a device' }));
    expect(dialog.getByText('For your security, please sign in again to add a device.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(dialog.getByRole('button', { name: 'Sign In Again' }));
    expect(onSignInAgain).toHaveBeenCalled();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });

  test('Replace key asks the same way, saying what for', async () => {
    renderWithMantine(<AddDeviceDialog {...props({ stage: 'signInNeeded', mode: 'replace', name: 'Home router' })} />);
    const dialog = within(await screen.findByRole('dialog', { name: 'Replace the key of Home router' }));
    expect(dialog.getByText("For your security, please sign in again to replace this device's key.")).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Sign In Again' })).toBeInTheDocument();
  });
});

/**
 * The WireGuard configuration file a device is given (issue 29, item 4): built in the browser from the
 * private key it made (never sent anywhere), the addresses the API assigned and the chosen server. Pure.
 */
import type { VpnServer, WireguardDevice } from '../contract/api';

/**
 * The platforms a customer can pick, with a new device's name for each, the next step after getting the file, in one sentence, and how
 * that device takes the configuration: a phone scans its QR code, the others import the file. A phone setting
 * up itself cannot scan its own screen: it imports the file (`onThisPhone`, issue 45 item 3).
 */
export const PLATFORMS = {
  windows: { label: 'Windows', deviceName: 'Windows PC', takes: 'file', nextStep: 'Install WireGuard for Windows, choose "Import tunnel(s) from file", pick the downloaded .conf file and press Activate.', onThisPhone: null },
  macos: { label: 'macOS', deviceName: 'Mac', takes: 'file', nextStep: 'Install WireGuard from the Mac App Store, choose "Import Tunnel(s) from File", pick the downloaded .conf file and press Activate.', onThisPhone: null },
  linux: {
    label: 'Linux',
    deviceName: 'Linux computer',
    takes: 'file',
    nextStep: 'Save the file as /etc/wireguard/veil.conf and run "sudo wg-quick up veil". wg-quick needs resolvconf for the DNS line: install it first (on Debian and Ubuntu "sudo apt install resolvconf").',
    onThisPhone: null,
  },
  ios: {
    label: 'iOS',
    deviceName: 'iPhone',
    takes: 'qr',
    nextStep: 'In the WireGuard app tap "+", then "Create from QR code", and scan the code below.',
    onThisPhone: 'Tap "Download .conf", then in the WireGuard app tap "+", then "Create from file or archive", and pick the file.',
  },
  android: {
    label: 'Android',
    deviceName: 'Android phone',
    takes: 'qr',
    nextStep: 'In the WireGuard app tap "+", then "Scan from QR code", and scan the code below.',
    onThisPhone: 'Tap "Download .conf", then in the WireGuard app tap "+", then "Import from file or archive", and pick the file.',
  },
  router: { label: 'Router', deviceName: 'Router', takes: 'file', nextStep: "Open your router's WireGuard client settings and import the downloaded .conf file (or copy its fields in).", onThisPhone: null },
} as const;
export type Platform = keyof typeof PLATFORMS;

/** The file's text: [Interface] with the private key, both addresses and DNS; [Peer] the server, all traffic. */
export function wireguardConfig(privateKey: string, device: Pick<WireguardDevice, 'ipv4Address' | 'ipv6Address'>, server: VpnServer): string {
  return [
    '[Interface]',
    `PrivateKey = ${privateKey}`,
    `Address = ${device.ipv4Address}/32, ${device.ipv6Address}/128`,
    `DNS = ${server.dns.join(', ')}`,
    '',
    '[Peer]',
    `PublicKey = ${server.publicKey}`,
    'AllowedIPs = 0.0.0.0/0, ::/0',
    `Endpoint = ${server.endpointHost.includes(':') ? `[${server.endpointHost}]` : server.endpointHost}:${server.endpointPort}`,
    'PersistentKeepalive = 25',
    '',
  ].join('\n');
}

/** The file's name: the device's name in letters, digits and dashes (WireGuard takes 15 characters as the tunnel name). */
export function configFileName(name: string): string {
  const base = name.replace(/[^A-Za-z0-9_=+.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 15);
  return `${base || 'veil'}.conf`;
}

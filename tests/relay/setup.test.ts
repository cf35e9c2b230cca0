/**
 * `npm run relay -- setup` (relay/setup.ts, issue 47 item 3), the part that needs no root: the server's private
 * key is made on the server into a 0600 file, and setup refuses to touch the interface when the key's public
 * half is not the one the catalogue lists for the token's server. (The interface, forwarding, NAT and the
 * customer-to-customer rule are proven in tests/relay/netns-proof.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { setUpInterface } from '../../relay/setup.ts';

const hasWg = (() => {
  try {
    execFileSync('which', ['wg'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(join(tmpdir(), 'veil-relay-setup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test.skipIf(!hasWg)('makes the private key here (0600) and refuses when its public key is not the catalogue’s', async () => {
  const keyFile = join(dir, 'keys', 'private.key');
  const settings = { serverId: 'us-nyc-1', publicKey: 'JRvNKoxqtv74Qb4fnNzUOAiNl9GcMDHaFNTWAYDgPA8=', listenPort: 51820, gatewayIpv4: '10.64.0.1', gatewayIpv6: 'fd76:6569:6c00::1', ipv4Pool: '10.64.0.0/10', ipv6Pool: 'fd76:6569:6c00::/48', healthIntervalSeconds: 60 };
  const lines: string[] = [];
  // An interface name no machine has: setup must stop before any command touches it.
  await expect(setUpInterface(settings, { interfaceName: 'veil-none-0', keyFile, log: (line) => lines.push(line) })).rejects.toThrow(/refusing to set up/);
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  const publicKey = execFileSync('wg', ['pubkey'], { input: readFileSync(keyFile) }).toString().trim();
  await expect(setUpInterface(settings, { interfaceName: 'veil-none-0', keyFile, log: () => undefined })).rejects.toThrow(`this server's public key is ${publicKey}`);
  // The key is kept: a second run uses the same one.
  expect(lines).toEqual([`made a new private key in ${keyFile}`]);
});

/**
 * `npm run relay -- setup` (issue 47 item 3, docs/relay.md): makes this server's WireGuard interface what the
 * API's settings for its token say, in one step, and can be run again at any time (every step replaces what
 * it set before):
 *  - the private key is made here (`wg genkey`) into RELAY_KEY_FILE (0600) and never leaves the server; setup
 *    refuses to go on when its public key is not the one the catalogue lists for this server id;
 *  - the interface (a kernel one, or wireguard-go where the kernel has no WireGuard) with the key and the
 *    listen port, the gateway addresses with the pools' prefixes, MTU 1420, up;
 *  - IP forwarding (IPv4 and IPv6), NAT (masquerade) for both tunnel pools, and no forwarding from the
 *    interface back into it: two customers never reach each other through the server (nftables, one table).
 * The resolver on the gateway addresses is a process of its own, `npm run relay -- resolver` (RELAY_RESOLVER_LISTEN,
 * RELAY_RESOLVER_UPSTREAM), run where those addresses are (inside RELAY_NETNS when there is one).
 * RELAY_NETNS runs every command inside that network namespace (an interface kept in a namespace of its own).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import type { RelaySettings } from '../contract/relay.ts';
import { apiClient } from './api-client.ts';
import { ConfigError } from './config.ts';

const run = promisify(execFile);

export interface SetupOptions {
  interfaceName: string;
  keyFile: string;
  /** Run every command inside this network namespace (`ip netns exec NS …`). */
  netns?: string;
  wgCommand?: string;
  log?: (line: string) => void;
}

/** The nftables table setup installs (replaced whole on every run). */
function firewallRules(interfaceName: string, settings: Pick<RelaySettings, 'ipv4Pool' | 'ipv6Pool'>): string {
  return [
    'table inet veil_relay {',
    '  chain forward {',
    '    type filter hook forward priority filter; policy accept;',
    `    iifname "${interfaceName}" oifname "${interfaceName}" drop comment "no traffic between two customers"`,
    '  }',
    '  chain postrouting {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    `    ip saddr ${settings.ipv4Pool} oifname != "${interfaceName}" masquerade`,
    `    ip6 saddr ${settings.ipv6Pool} oifname != "${interfaceName}" masquerade`,
    '  }',
    '}',
    '',
  ].join('\n');
}

const prefixOf = (cidr: string) => {
  const prefix = cidr.split('/')[1];
  if (!prefix || !/^\d{1,3}$/.test(prefix)) throw new ConfigError(`the pool ${cidr} from the API's settings is not a CIDR range`);
  return prefix;
};

export async function setUpInterface(settings: RelaySettings, options: SetupOptions): Promise<{ publicKey: string }> {
  const { interfaceName, keyFile, netns, wgCommand = 'wg', log = (line) => process.stdout.write(`${line}\n`) } = options;
  const inNs = (command: string, args: string[]): [string, string[]] => (netns ? ['ip', ['netns', 'exec', netns, command, ...args]] : [command, args]);
  const exec = async (command: string, args: string[], input?: string) => {
    const [file, argv] = inNs(command, args);
    if (input === undefined) return (await run(file, argv, { encoding: 'utf8' })).stdout;
    return new Promise<string>((resolve, reject) => {
      const child = execFile(file, argv, { encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
      child.stdin?.end(input);
    });
  };

  // The key: made here once, kept 0600, never sent anywhere (only its public half is compared).
  if (!existsSync(keyFile)) {
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
    const privateKey = (await run(wgCommand, ['genkey'], { encoding: 'utf8' })).stdout.trim();
    writeFileSync(keyFile, `${privateKey}\n`, { mode: 0o600, flag: 'wx' });
    log(`made a new private key in ${keyFile}`);
  }
  const publicKey = (await new Promise<string>((resolve, reject) => {
    const child = execFile(wgCommand, ['pubkey'], { encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    child.stdin?.end(readFileSync(keyFile, 'utf8'));
  })).trim();
  if (publicKey !== settings.publicKey) {
    throw new ConfigError(
      `this server's public key is ${publicKey}, but the catalogue lists ${settings.publicKey} for server ${settings.serverId}: refusing to set up. Put this key in the catalogue (VPN_SERVERS) or restore the key file (docs/relay.md, "Rotating the server key")`,
    );
  }

  // The interface: the kernel's when it has WireGuard, else wireguard-go (which makes a tun device and runs in the background).
  const exists = await exec('ip', ['link', 'show', 'dev', interfaceName]).then(() => true, () => false);
  if (!exists) {
    const kernel = await exec('ip', ['link', 'add', 'dev', interfaceName, 'type', 'wireguard']).then(() => true, () => false);
    if (!kernel) {
      const [file, argv] = inNs('wireguard-go', [interfaceName]);
      const child = spawn(file, argv, { stdio: 'ignore', detached: true });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      if (code !== 0) throw new Error(`neither the kernel nor wireguard-go could make ${interfaceName} (wireguard-go exited ${code})`);
      log(`started wireguard-go for ${interfaceName}`);
    }
    for (let tries = 0; !(await exec(wgCommand, ['show', interfaceName, 'public-key']).then(() => true, () => false)); tries += 1) {
      if (tries > 50) throw new Error(`${interfaceName} did not come up`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await exec(wgCommand, ['set', interfaceName, 'listen-port', String(settings.listenPort), 'private-key', keyFile]);
  await exec('ip', ['address', 'replace', `${settings.gatewayIpv4}/${prefixOf(settings.ipv4Pool)}`, 'dev', interfaceName]);
  // nodad: the resolver can listen on the address at once.
  await exec('ip', ['-6', 'address', 'replace', `${settings.gatewayIpv6}/${prefixOf(settings.ipv6Pool)}`, 'dev', interfaceName, 'nodad']);
  await exec('ip', ['link', 'set', 'dev', interfaceName, 'mtu', '1420', 'up']);
  await exec('sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1', 'net.ipv6.conf.all.forwarding=1']);
  // Replaced whole: add (so the delete never fails), delete, then the rules.
  await exec('nft', ['-f', '-'], `table inet veil_relay {}\ndelete table inet veil_relay\n${firewallRules(interfaceName, settings)}`);
  log(`${interfaceName} is set up for server ${settings.serverId}: port ${settings.listenPort}, gateways ${settings.gatewayIpv4} and ${settings.gatewayIpv6}, forwarding and NAT on, customer-to-customer traffic dropped`);
  return { publicKey };
}

/** `npm run relay -- setup`: RELAY_API_URL, RELAY_TOKEN, RELAY_INTERFACE, RELAY_KEY_FILE (/etc/veil-relay/private.key), RELAY_NETNS. */
export async function runSetup(env: NodeJS.ProcessEnv): Promise<void> {
  const missing = ['RELAY_API_URL', 'RELAY_TOKEN', 'RELAY_INTERFACE'].filter((name) => !env[name]);
  if (missing.length > 0) throw new ConfigError(`missing ${missing.join(', ')} (docs/relay.md)`);
  const settings = await apiClient(new URL(env.RELAY_API_URL!).origin, env.RELAY_TOKEN!).settings();
  await setUpInterface(settings, {
    interfaceName: env.RELAY_INTERFACE!,
    keyFile: env.RELAY_KEY_FILE || '/etc/veil-relay/private.key',
    netns: env.RELAY_NETNS || undefined,
    wgCommand: env.WG_COMMAND || 'wg',
  });
}

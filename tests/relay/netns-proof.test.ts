/**
 * The proof through a real WireGuard tunnel (issue 47 item 4), in WireGuard's own selftest shape: network
 * namespaces this file makes, Debian's wireguard-go and wireguard-tools.
 *  - "inet": a host that answers ping and a name server that knows one name;
 *  - "relay": the server's wireguard-go interface, configured by the agent's own setup (relay/setup.ts:
 *    forwarding, NAT, no customer-to-customer traffic) and the agent's resolver on the gateway addresses; the
 *    real agent runs here in the test's process and drives that interface through `wg` (its control socket is
 *    on the shared filesystem);
 *  - "c1", "c2": customers whose interfaces load the configuration the account page builds
 *    (machines/wireguard-config.ts), through `wg-quick strip` and `wg setconf`.
 * The peer list comes from a contract API on 127.0.0.1 (support/fake-relay-api.ts). Traffic goes only to
 * loopback and to addresses inside these namespaces. Skipped with a message without root or the tools;
 * RELAY_NETNS_REQUIRED=1 (CI) makes that a failure.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { VpnServer } from '../../contract/api.ts';
import type { Peer } from '../../contract/relay.ts';
import { wireguardConfig } from '../../machines/wireguard-config.ts';
import { RelayAgent } from '../../relay/agent.ts';
import { apiClient } from '../../relay/api-client.ts';
import type { AgentConfig } from '../../relay/config.ts';
import { setUpInterface } from '../../relay/setup.ts';
import { wgDriver } from '../../relay/wg-driver.ts';
import { until } from '../support/until.ts';
import { newKeyPair } from './support/fake-interface.ts';
import { FakeRelayApi } from './support/fake-relay-api.ts';
import { ifName, inNs, pings, sh, sweepLeftovers, Topology, whyNetnsCannotRun } from './support/netns.ts';

const cannotRun = whyNetnsCannotRun();
const required = process.env.RELAY_NETNS_REQUIRED === '1';
if (cannotRun) console.warn(`tests/relay/netns-proof.test.ts: skipped, ${cannotRun}${required ? ' (RELAY_NETNS_REQUIRED=1: failing)' : ''}`);

test.runIf(cannotRun !== null && required)('the network-namespace proof can run here (RELAY_NETNS_REQUIRED=1)', () => {
  throw new Error(`the relay's network-namespace proof cannot run: ${cannotRun}`);
});

const TOKEN = 'relay-netns-proof-token-0123456789';
const INTERNET_HOST = '198.18.0.2';
const INTERNET_HOST_6 = '2001:db8:18::2';
const GATEWAY = '10.64.0.1';
const GATEWAY_6 = 'fd76:6569:6c00::1';
const NAME = 'host.internet.test';
/** The relay's public address, on a bridge every customer's link joins. */
const ENDPOINT = '198.19.0.1';
const DAY_MS = 86_400_000;

interface Customer {
  ns: string;
  iface: string;
  privateKey: string;
  peer: Peer;
}

describe.skipIf(cannotRun !== null)('a customer through a real WireGuard tunnel to a relay the agent drives', () => {
  const topology = new Topology();
  const dir = mkdtempSync(join(tmpdir(), 'veil-relay-netns-'));
  const relayKeys = newKeyPair();
  const relayIf = ifName('srv');
  let relayNs = '';
  let bridge = '';
  let api: FakeRelayApi;
  let agent: RelayAgent | null = null;
  let running: Promise<void> | null = null;
  const customers: Customer[] = [];
  const agentConfig = (): AgentConfig => ({
    apiUrl: api.url,
    token: TOKEN,
    interfaceName: relayIf,
    wgCommand: 'wg',
    pollWaitSeconds: 25,
    backoffBaseMs: 200,
    backoffMaxMs: 1000,
    idleResetSeconds: 60,
    idleAfterSeconds: 180,
    massRemovalConfirmMs: 2000,
    fullSyncSeconds: 600,
    minPollIntervalMs: 200,
  });
  const wg = wgDriver('wg', relayIf);

  async function startAgent() {
    const config = agentConfig();
    agent = new RelayAgent(config, { api: apiClient(config.apiUrl, TOKEN), wg, log: () => undefined, warn: () => undefined });
    running = agent.run();
    running.catch(() => undefined);
  }
  async function stopAgent() {
    agent?.stop();
    await running?.catch(() => undefined);
    agent = null;
  }
  const relayHolds = async (publicKey: string) => (await wg.peers(180)).has(publicKey);

  /** The configuration the account page builds, loaded as its instructions say (wg-quick strip, then wg setconf). */
  async function loadConfiguration(customer: Customer) {
    const server: VpnServer = {
      id: 'us-nyc-1',
      country: 'US',
      countryName: 'United States',
      city: 'New York',
      hostname: 'us-nyc-1.vpn.veil.example',
      endpointHost: ENDPOINT,
      endpointPort: 51820,
      publicKey: relayKeys.publicKey,
      dns: [GATEWAY, GATEWAY_6],
    };
    const file = join(dir, `${customer.iface}.conf`);
    writeFileSync(file, wireguardConfig(customer.privateKey, customer.peer, server), { mode: 0o600 });
    writeFileSync(`${file}.stripped`, await sh('wg-quick', ['strip', file]), { mode: 0o600 });
    await sh('wg', ['setconf', customer.iface, `${file}.stripped`]);
  }

  /** The customer disconnects and connects again: a fresh handshake. */
  async function reconnect(customer: Customer) {
    await sh('wg', ['set', customer.iface, 'peer', relayKeys.publicKey, 'remove']);
    await loadConfiguration(customer);
  }

  async function newCustomer(role: string, n: number, expiresInMs = DAY_MS): Promise<Customer> {
    const ns = await topology.addNamespace(role);
    await topology.linkToBridge(relayNs, bridge, ns, `198.19.0.${n + 1}`, `${role}l`);
    const keys = newKeyPair();
    const customer: Customer = {
      ns,
      iface: ifName(role),
      privateKey: keys.privateKey,
      peer: { publicKey: keys.publicKey, ipv4Address: `10.64.0.${n + 1}`, ipv6Address: `fd76:6569:6c00::${n + 1}`, expiresAt: new Date(Date.now() + expiresInMs).toISOString() },
    };
    await topology.wireguard(ns, customer.iface);
    await loadConfiguration(customer);
    await inNs(ns, 'ip', ['address', 'add', `${customer.peer.ipv4Address}/32`, 'dev', customer.iface]);
    await inNs(ns, 'ip', ['-6', 'address', 'add', `${customer.peer.ipv6Address}/128`, 'dev', customer.iface, 'nodad']);
    await inNs(ns, 'ip', ['link', 'set', customer.iface, 'mtu', '1420', 'up']);
    await inNs(ns, 'ip', ['route', 'add', 'default', 'dev', customer.iface]);
    await inNs(ns, 'ip', ['-6', 'route', 'add', 'default', 'dev', customer.iface]);
    customers.push(customer);
    return customer;
  }

  /** Waits until the customer's tunnel answers a ping of the gateway (a handshake may take a moment). */
  const tunnelWorks = (customer: Customer, timeoutMs = 8000) => until(() => pings(customer.ns, GATEWAY), timeoutMs).then(() => true);

  /** A fresh handshake fails: the customer connects again and nothing answers. */
  async function freshHandshakeFails(customer: Customer) {
    await reconnect(customer);
    expect(await pings(customer.ns, GATEWAY, 2)).toBe(false);
    expect((await sh('wg', ['show', customer.iface, 'latest-handshakes'])).trim().split('\t')[1]).toBe('0');
  }

  beforeAll(async () => {
    await sweepLeftovers();
    const inet = await topology.addNamespace('inet');
    relayNs = await topology.addNamespace('relay');
    await topology.link({ ns: relayNs, ipv4: '198.18.0.1', ipv6: '2001:db8:18::1' }, { ns: inet, ipv4: INTERNET_HOST, ipv6: INTERNET_HOST_6 }, 'net');
    await inNs(inet, 'ip', ['route', 'add', 'default', 'via', '198.18.0.1']);
    bridge = await topology.bridge(relayNs, 'br', ENDPOINT);
    await topology.start(inet, process.execPath, [join(import.meta.dirname, 'support', 'dns-cli.ts'), 'serve', NAME, INTERNET_HOST, '53', INTERNET_HOST], { ready: /serving/ });

    api = await new FakeRelayApi(TOKEN, {
      serverId: 'us-nyc-1',
      publicKey: relayKeys.publicKey,
      listenPort: 51820,
      gatewayIpv4: GATEWAY,
      gatewayIpv6: GATEWAY_6,
      ipv4Pool: '10.64.0.0/10',
      ipv6Pool: 'fd76:6569:6c00::/48',
      healthIntervalSeconds: 60,
    }).start();
    // The server's key is made on the server (setup would run `wg genkey`; here the test made it first, to list it).
    writeFileSync(join(dir, 'private.key'), `${relayKeys.privateKey}\n`, { mode: 0o600 });
    await setUpInterface(api.settings, { interfaceName: relayIf, keyFile: join(dir, 'private.key'), netns: relayNs, log: () => undefined });
    await topology.start(relayNs, process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'relay', 'main.ts'), 'resolver'], {
      env: { RELAY_RESOLVER_LISTEN: `${GATEWAY},${GATEWAY_6}`, RELAY_RESOLVER_UPSTREAM: INTERNET_HOST },
      ready: /resolver_started/,
    });
    await newCustomer('c1', 1);
    await newCustomer('c2', 2);
    api.add(customers[0]!.peer, customers[1]!.peer);
    await startAgent();
  }, 120_000);

  afterAll(async () => {
    await stopAgent();
    await api?.stop();
    await topology.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the customer pings the gateway and the "internet" host through the tunnel, and resolves a name through the relay', async () => {
    const [c1] = customers;
    await tunnelWorks(c1!);
    expect(await pings(c1!.ns, INTERNET_HOST)).toBe(true);
    expect(await pings(c1!.ns, GATEWAY_6)).toBe(true);
    expect(await pings(c1!.ns, INTERNET_HOST_6)).toBe(true);
    // Only through the tunnel: the customer's namespace has no other way to 198.18.0.0/24.
    expect(await inNs(c1!.ns, 'ip', ['route', 'get', INTERNET_HOST])).toContain(`dev ${c1!.iface}`);
    const answer = await inNs(c1!.ns, process.execPath, [join(import.meta.dirname, 'support', 'dns-cli.ts'), 'lookup', NAME, GATEWAY]);
    expect(answer.trim()).toBe(INTERNET_HOST);
  });

  test('a second customer cannot reach the first through the server', async () => {
    const [c1, c2] = customers;
    await tunnelWorks(c2!);
    await tunnelWorks(c1!);
    expect(await pings(c2!.ns, c1!.peer.ipv4Address)).toBe(false);
    expect(await pings(c2!.ns, c1!.peer.ipv6Address)).toBe(false);
    expect(await pings(c1!.ns, c2!.peer.ipv4Address)).toBe(false);
  });

  test('revoking a key stops its tunnel within 2 s of the API answering (a fresh handshake fails)', async () => {
    const [c1, c2] = customers;
    await tunnelWorks(c1!);
    const answeredAt = performance.now();
    api.remove(c1!.peer.publicKey);
    await until(async () => !(await relayHolds(c1!.peer.publicKey)), 5000);
    const latencyMs = Math.round(performance.now() - answeredAt);
    console.log(`revoke: the key left the relay's interface ${latencyMs} ms after the API's answer`);
    expect(latencyMs).toBeLessThan(2000);
    // The running tunnel stops at the next packet, and a new handshake is not answered.
    expect(await pings(c1!.ns, GATEWAY)).toBe(false);
    await freshHandshakeFails(c1!);
    expect(await pings(c2!.ns, GATEWAY)).toBe(true);
  });

  test("a re-subscribed customer's key works again", async () => {
    const [c1] = customers;
    api.add(c1!.peer);
    await until(() => relayHolds(c1!.peer.publicKey), 5000);
    await reconnect(c1!);
    await tunnelWorks(c1!);
  });

  test('a restarted agent repairs a peer removed by hand', async () => {
    const [c1] = customers;
    await stopAgent();
    await sh('wg', ['set', relayIf, 'peer', c1!.peer.publicKey, 'remove']);
    expect(await pings(c1!.ns, GATEWAY)).toBe(false);
    await startAgent();
    await until(() => relayHolds(c1!.peer.publicKey), 5000);
    await reconnect(c1!);
    await tunnelWorks(c1!);
  });

  test('an empty list removes everyone only when it really is empty', async () => {
    const [c1, c2] = customers;
    // A full list that is empty by mistake (once): every peer stays, tunnels keep working.
    api.answerNext((response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: api.version + 1, peers: [] })));
    api.floor = api.version + 1;
    api.add();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await relayHolds(c1!.peer.publicKey)).toBe(true);
    expect(await relayHolds(c2!.peer.publicKey)).toBe(true);
    expect(await pings(c1!.ns, GATEWAY)).toBe(true);
    // Really empty (two full lists agree): everyone goes.
    api.floor = api.version + 2;
    api.remove(c1!.peer.publicKey, c2!.peer.publicKey);
    await until(async () => (await wg.peers(180)).size === 0, 10_000);
    expect(await pings(c2!.ns, GATEWAY)).toBe(false);
    // Back for the next test.
    api.floor = 0;
    api.add(c1!.peer, c2!.peer);
    await until(async () => (await wg.peers(180)).size === 2, 10_000);
  });

  test("with the API stopped, paid peers keep working and a peer whose expiresAt passes stops", async () => {
    const [c1, c2] = customers;
    const ending = { ...c2!.peer, expiresAt: new Date(Date.now() + 4000).toISOString() };
    api.add(ending);
    await until(async () => harnessVersion() === api.version, 5000);
    await reconnect(c1!);
    await reconnect(c2!);
    await tunnelWorks(c1!);
    await tunnelWorks(c2!);
    await api.stop();
    await until(async () => !(await relayHolds(c2!.peer.publicKey)), 8000);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(ending.expiresAt));
    await freshHandshakeFails(c2!);
    expect(await pings(c1!.ns, GATEWAY)).toBe(true);
    expect(await pings(c1!.ns, INTERNET_HOST)).toBe(true);
  });

  const harnessVersion = () => agent?.appliedVersion;
});

/**
 * The proof through a real WireGuard tunnel (issue 47 item 4), in WireGuard's own selftest shape: network
 * namespaces this file makes, Debian's wireguard-go and wireguard-tools.
 *  - "inet": a host that answers ping and a name server that knows one name;
 *  - "relay": the server's wireguard-go interface, set up by the agent's own setup (relay/setup.ts: the
 *    settings the API gives its token, forwarding, NAT, no customer-to-customer traffic) and the relay's
 *    resolver on the gateway addresses; the real agent runs in the test's process and drives that interface
 *    through `wg` (its control socket is on the shared filesystem);
 *  - "c1", "c2": customers' machines, whose interfaces load the configuration the account page builds
 *    (machines/wireguard-config.ts with the catalogue entry GET /api/vpn/servers answers), through
 *    `wg-quick strip` and `wg setconf`.
 * The API is the real one (support/veil-api.ts; with Stripe's stand-in for the lost dispute), on 127.0.0.1 behind a switchable proxy (support/switch-proxy.ts)
 * so the test can take it away. Every way access ends is driven through the API's own calls, and each stops the
 * tunnel within 2 s of the API's answer (measured and printed). Traffic goes only to loopback and to addresses
 * inside these namespaces. Skipped with a message without root or the tools; RELAY_NETNS_REQUIRED=1 (CI) makes
 * that a failure.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { VpnServer } from '../../contract/api.ts';
import { wireguardConfig } from '../../machines/wireguard-config.ts';
import { RelayAgent } from '../../relay/agent.ts';
import { apiClient } from '../../relay/api-client.ts';
import type { AgentConfig } from '../../relay/config.ts';
import { setUpInterface } from '../../relay/setup.ts';
import { wgDriver } from '../../relay/wg-driver.ts';
import { subscriptions } from '../../server/db/schema.ts';
import { until } from '../support/until.ts';
import { newKeyPair } from './support/fake-interface.ts';
import { ifName, inNs, pings, sh, sweepLeftovers, Topology, whyNetnsCannotRun } from './support/netns.ts';
import { SwitchProxy } from './support/switch-proxy.ts';
import { startVeilApi, type Customer as Account, type VeilApi } from './support/veil-api.ts';

const cannotRun = whyNetnsCannotRun();
const required = process.env.RELAY_NETNS_REQUIRED === '1';
if (cannotRun) console.warn(`tests/relay/netns-proof.test.ts: skipped, ${cannotRun}${required ? ' (RELAY_NETNS_REQUIRED=1: failing)' : ''}`);

test.runIf(cannotRun !== null && required)('the network-namespace proof can run here (RELAY_NETNS_REQUIRED=1)', () => {
  throw new Error(`the relay's network-namespace proof cannot run: ${cannotRun}`);
});

const TOKEN = 'relay-netns-proof-token-0123456789abcdef';
const SERVER_ID = 'relay-proof-1';
const INTERNET_HOST = '198.18.0.2';
const INTERNET_HOST_6 = '2001:db8:18::2';
const NAME = 'host.internet.test';
/** The relay's public address, on a bridge every customer's link joins. */
const ENDPOINT = '198.19.0.1';
/** subscriptions.ts's grace period after a paid-through date. */
const GRACE_MS = 3 * 86_400_000;

/** A customer's machine: a namespace with a WireGuard interface. */
interface Machine {
  ns: string;
  iface: string;
}
/** A customer on a machine with a key the "browser" made (the private half stays here). */
interface Connected {
  account: Account;
  machine: Machine;
  privateKey: string;
  device: { id: string; publicKey: string; ipv4Address: string; ipv6Address: string };
}

describe.skipIf(cannotRun !== null)('customers through a real WireGuard tunnel to a relay the agent drives from the real API', () => {
  const topology = new Topology();
  const dir = mkdtempSync(join(tmpdir(), 'veil-relay-netns-'));
  const relayKeys = newKeyPair();
  const relayIf = ifName('srv');
  let relayNs = '';
  let bridge = '';
  let veil: VeilApi;
  let proxy: SwitchProxy;
  let server: VpnServer;
  let gateway = '';
  let gateway6 = '';
  let agent: RelayAgent | null = null;
  let running: Promise<void> | null = null;
  const machines: Machine[] = [];
  const latencies: Record<string, number> = {};
  const wg = wgDriver('wg', relayIf);

  const agentConfig = (): AgentConfig => ({
    apiUrl: proxy.url,
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
  /** The agent's log lines, printed when a test fails. */
  const agentLog: string[] = [];
  /**
   * When the agent (in this process) logged each list, change or expiry it applied that removed peers: its
   * `wg set` had returned, so the keys were off the interface (performance.now(), read as the line is logged).
   */
  const removalsAppliedAt: number[] = [];
  function startAgent() {
    const config = agentConfig();
    const log = (event: string, fields: Record<string, unknown> = {}) => {
      const removed = event === 'peers_expired' ? fields.peers : event === 'changes_applied' || event === 'full_list_applied' ? fields.removed : 0;
      if (Number(removed) > 0) removalsAppliedAt.push(performance.now());
      agentLog.push(JSON.stringify({ event, ...fields }));
    };
    agent = new RelayAgent(config, { api: apiClient(config.apiUrl, TOKEN), wg, log, warn: (line) => agentLog.push(line) });
    running = agent.run();
    running.catch(() => undefined);
  }
  async function stopAgent() {
    agent?.stop();
    await running?.catch(() => undefined);
    agent = null;
  }
  const relayHolds = async (publicKey: string) => (await wg.peers(180)).has(publicKey);

  async function newMachine(role: string, n: number): Promise<Machine> {
    const ns = await topology.addNamespace(role);
    await topology.linkToBridge(relayNs, bridge, ns, `198.19.0.${n + 1}`, `${role}l`);
    const machine = { ns, iface: ifName(role) };
    await topology.wireguard(ns, machine.iface);
    await inNs(ns, 'ip', ['link', 'set', machine.iface, 'mtu', '1420', 'up']);
    machines.push(machine);
    return machine;
  }

  /** The configuration the account page builds, loaded as its Linux instructions say (wg-quick strip, then wg setconf). */
  async function loadConfiguration({ machine, privateKey, device }: Connected) {
    const file = join(dir, `${machine.iface}.conf`);
    writeFileSync(file, wireguardConfig(privateKey, device, server), { mode: 0o600 });
    writeFileSync(`${file}.stripped`, await sh('wg-quick', ['strip', file]), { mode: 0o600 });
    await sh('wg', ['setconf', machine.iface, `${file}.stripped`]);
    await inNs(machine.ns, 'ip', ['address', 'flush', 'dev', machine.iface]);
    await inNs(machine.ns, 'ip', ['address', 'add', `${device.ipv4Address}/32`, 'dev', machine.iface]);
    await inNs(machine.ns, 'ip', ['-6', 'address', 'add', `${device.ipv6Address}/128`, 'dev', machine.iface, 'nodad']);
    // All traffic through the tunnel (AllowedIPs 0.0.0.0/0, ::/0); the flush above took the routes with the addresses.
    await inNs(machine.ns, 'ip', ['route', 'replace', 'default', 'dev', machine.iface]);
    await inNs(machine.ns, 'ip', ['-6', 'route', 'replace', 'default', 'dev', machine.iface]);
  }

  /** The customer disconnects and connects again: a fresh handshake. */
  async function reconnect(customer: Connected) {
    await sh('wg', ['set', customer.machine.iface, 'peer', relayKeys.publicKey, 'remove']);
    await loadConfiguration(customer);
  }

  /** Signs up and pays, adds a device with a key made here, and connects `machine` with its configuration. */
  async function connect(name: string, machine: Machine, on: VeilApi = veil): Promise<Connected> {
    const account = on.customer(name);
    await account.subscribe();
    const keys = newKeyPair();
    const device = await account.addDevice(keys.publicKey);
    const customer = { account, machine, privateKey: keys.privateKey, device };
    await until(() => relayHolds(device.publicKey), 5000);
    await loadConfiguration(customer);
    await tunnelWorks(customer);
    return customer;
  }

  /** Waits until the customer's tunnel answers a ping of the gateway (a handshake may take a moment). */
  const tunnelWorks = (customer: Connected, timeoutMs = 8000) => until(() => pings(customer.machine.ns, gateway), timeoutMs).then(() => true);

  /** A fresh handshake fails: the customer connects again and nothing answers. */
  async function freshHandshakeFails(customer: Connected) {
    await reconnect(customer);
    expect(await pings(customer.machine.ns, gateway)).toBe(false);
    expect((await sh('wg', ['show', customer.machine.iface, 'latest-handshakes'])).trim().split('\t')[1]).toBe('0');
  }

  /**
   * `end` is done through the API; from its answer, the key must leave the relay within 2 s and the tunnel stop.
   * The time is the agent's: its removal applied (removalsAppliedAt), or the look with `wg show` that saw the
   * key gone if that came first. The look alone is late by its own cost: spawning `wg` in the namespace every
   * 100 ms took up to a second on a machine at load 19, which measured 2,034 ms for a removal made well before.
   */
  async function stopsWithinTwoSeconds(cause: string, customer: Connected, end: () => Promise<void>) {
    await tunnelWorks(customer);
    const removalsBefore = removalsAppliedAt.length;
    const requestedAt = performance.now();
    await end();
    const answeredAt = performance.now();
    await until(async () => !(await relayHolds(customer.device.publicKey)), 5000);
    const seenGoneAt = performance.now();
    // The agent logs once its `wg set` has exited, which this process can hear just after the look above saw
    // the key gone (a CI run read the log too early, twice): the key was off by whichever came first.
    const loggedAt = await until(() => removalsAppliedAt[removalsBefore], 5000);
    const removedAt = Math.min(loggedAt, seenGoneAt);
    const seenGoneMs = Math.round(seenGoneAt - answeredAt);
    // Below 0 when the agent, woken at the commit, removed the key before the API's answer reached the test.
    const latencyMs = Math.round(removedAt - answeredAt);
    latencies[cause] = latencyMs;
    console.log(
      `${cause}: the key left the relay ${latencyMs} ms after the API's answer (${Math.round(removedAt - requestedAt)} ms after the request); the agent logged it ${Math.round(loggedAt - answeredAt)} ms, wg show saw it gone ${seenGoneMs} ms after the answer`,
    );
    expect(latencyMs).toBeLessThan(2000);
    // The running tunnel stops at its next packet, and a new handshake is not answered.
    expect(await pings(customer.machine.ns, gateway)).toBe(false);
    await freshHandshakeFails(customer);
  }

  let c1: Machine;
  let c2: Machine;
  let ada: Connected;
  let bob: Connected;

  beforeAll(async () => {
    await sweepLeftovers();
    const inet = await topology.addNamespace('inet');
    relayNs = await topology.addNamespace('relay');
    await topology.link({ ns: relayNs, ipv4: '198.18.0.1', ipv6: '2001:db8:18::1' }, { ns: inet, ipv4: INTERNET_HOST, ipv6: INTERNET_HOST_6 }, 'net');
    await inNs(inet, 'ip', ['route', 'add', 'default', 'via', '198.18.0.1']);
    await topology.start(inet, process.execPath, [join(import.meta.dirname, 'support', 'dns-cli.ts'), 'serve', NAME, INTERNET_HOST, '53', INTERNET_HOST], { ready: /serving/ });
    bridge = await topology.bridge(relayNs, 'br', ENDPOINT);

    // The API, its catalogue naming this relay with the key made for it, and the relay's token.
    veil = await startVeilApi({ dir, serverId: SERVER_ID, publicKey: relayKeys.publicKey, endpointHost: ENDPOINT, token: TOKEN });
    proxy = await new SwitchProxy(veil.url).start();
    server = await veil.server();
    // Setup as on a server: the settings come from the API for the token (the key file stands for `wg genkey`'s).
    const settings = await apiClient(proxy.url, TOKEN).settings();
    gateway = settings.gatewayIpv4;
    gateway6 = settings.gatewayIpv6;
    writeFileSync(join(dir, 'private.key'), `${relayKeys.privateKey}\n`, { mode: 0o600 });
    await setUpInterface(settings, { interfaceName: relayIf, keyFile: join(dir, 'private.key'), netns: relayNs, log: () => undefined });
    await topology.start(relayNs, process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'relay', 'main.ts'), 'resolver'], {
      env: { RELAY_RESOLVER_LISTEN: `${gateway},${gateway6}`, RELAY_RESOLVER_UPSTREAM: INTERNET_HOST },
      ready: /resolver_started/,
    });
    startAgent();
    c1 = await newMachine('c1', 1);
    c2 = await newMachine('c2', 2);
    ada = await connect('ada', c1);
    bob = await connect('bob', c2);
  }, 120_000);

  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.log(`the agent's last log lines:\n${agentLog.slice(-15).join('\n')}`);
  });

  afterAll(async () => {
    await stopAgent();
    await proxy?.close();
    await veil?.close();
    await topology.destroy();
    rmSync(dir, { recursive: true, force: true });
    if (Object.keys(latencies).length) console.log(`revocation latencies (ms after the API's answer): ${JSON.stringify(latencies)}`);
  });

  test('the customer pings the gateway and the "internet" host through the tunnel, and resolves a name through the relay', async () => {
    expect(await pings(c1.ns, INTERNET_HOST)).toBe(true);
    expect(await pings(c1.ns, gateway6)).toBe(true);
    expect(await pings(c1.ns, INTERNET_HOST_6)).toBe(true);
    // Only through the tunnel: the customer's namespace has no other way to 198.18.0.0/24.
    expect(await inNs(c1.ns, 'ip', ['route', 'get', INTERNET_HOST])).toContain(`dev ${c1.iface}`);
    const answer = await inNs(c1.ns, process.execPath, [join(import.meta.dirname, 'support', 'dns-cli.ts'), 'lookup', NAME, gateway]);
    expect(answer.trim()).toBe(INTERNET_HOST);
  });

  test('a second customer cannot reach the first through the server', async () => {
    await tunnelWorks(ada);
    await tunnelWorks(bob);
    const reached = await Promise.all([pings(c2.ns, ada.device.ipv4Address), pings(c2.ns, ada.device.ipv6Address), pings(c1.ns, bob.device.ipv4Address)]);
    expect(reached).toEqual([false, false, false]);
  });

  test('revoking the device on the account page stops its tunnel within 2 s (a fresh handshake fails)', async () => {
    await stopsWithinTwoSeconds('revoke', ada, () => ada.account.revoke(ada.device.id));
    expect(await pings(c2.ns, gateway)).toBe(true);
  });

  test('the money-back refund stops the tunnel within 2 s', async () => {
    const cy = await connect('cy', c1);
    await stopsWithinTwoSeconds('refund', cy, () => cy.account.refund());
  });

  test('deleting the account stops the tunnel within 2 s', async () => {
    const di = await connect('di', c1);
    await stopsWithinTwoSeconds('deletion', di, () => di.account.deleteAccount());
  });

  test('support disabling the account stops the tunnel within 2 s', async () => {
    const ed = await connect('ed', c1);
    await stopsWithinTwoSeconds('staff disable', ed, () => ed.account.disableByStaff());
  });

  test('with the API down, paid peers keep working and a peer whose expiresAt passes stops, by the agent alone', async () => {
    // Fay's paid-through date (plus the grace) is 5 s away: her key is listed with that expiresAt.
    const fay = await connect('fay', c1);
    await veil.api.database.db
      .update(subscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - GRACE_MS + 5000) })
      .where(eq(subscriptions.userId, fay.account.userId));
    const keys = newKeyPair();
    const device = await fay.account.addDevice(keys.publicKey);
    const ending: Connected = { ...fay, privateKey: keys.privateKey, device };
    await until(() => relayHolds(device.publicKey), 5000);
    await loadConfiguration(ending);
    await tunnelWorks(ending, 3000);
    proxy.switchTo(null);
    expect(await pings(c2.ns, gateway)).toBe(true);
    await until(async () => !(await relayHolds(device.publicKey)), 10_000);
    await freshHandshakeFails(ending);
    // Bob has paid: his tunnel works on, with no API, and reaches the "internet".
    expect(await pings(c2.ns, gateway)).toBe(true);
    expect(await pings(c2.ns, INTERNET_HOST)).toBe(true);
    proxy.switchTo(veil.url);
  });

  test("a lapse by the billing clock stops the tunnel within 2 s; subscribing again makes the customer's key work again", async () => {
    const gus = await connect('gus', c1);
    await gus.account.cancelRenewal();
    // A year and the grace later by the billing clock: the period ended with renewal off. (Bob renews.)
    await stopsWithinTwoSeconds('lapse by the billing clock', gus, () => veil.advanceClock('400d'));
    await gus.account.subscribe();
    await until(() => relayHolds(gus.device.publicKey), 5000);
    await reconnect(gus);
    await tunnelWorks(gus);
    expect(await relayHolds(bob.device.publicKey)).toBe(true);
  });

  test('a restarted agent repairs a peer removed by hand', async () => {
    await stopAgent();
    await sh('wg', ['set', relayIf, 'peer', bob.device.publicKey, 'remove']);
    expect(await pings(c2.ns, gateway)).toBe(false);
    startAgent();
    await until(() => relayHolds(bob.device.publicKey), 5000);
    await reconnect(bob);
    await tunnelWorks(bob);
  });

  test('an empty list removes everyone only when it really is empty', async () => {
    const held = (await wg.peers(180)).size;
    expect(held).toBeGreaterThanOrEqual(2);
    // The agent restarts while the API answers from an empty database (a deploy with the wrong DATABASE_URL).
    const empty = await startVeilApi({ dir: mkdtempSync(join(dir, 'empty-')), serverId: SERVER_ID, publicKey: relayKeys.publicKey, endpointHost: ENDPOINT, token: TOKEN });
    try {
      await stopAgent();
      proxy.switchTo(empty.url);
      startAgent();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await wg.peers(180)).size).toBe(held);
      expect(await pings(c2.ns, gateway)).toBe(true);
      // The right database is back before the second list: nothing was removed.
      proxy.switchTo(veil.url);
      await until(() => agent?.appliedVersion !== null, 10_000);
      expect((await wg.peers(180)).size).toBe(held);
      expect(await pings(c2.ns, INTERNET_HOST)).toBe(true);
    } finally {
      await empty.close();
    }
    // Really empty: everyone's access ends while the agent is away (renewal off, then the period ends by the
    // billing clock); at its restart the full list is empty twice, and everyone goes.
    await stopAgent();
    // (Fay's renewal brought her back when the clock passed her period's end.)
    for (const name of ['bob', 'fay', 'gus']) await veil.customer(name).cancelRenewal();
    await veil.advanceClock('800d');
    startAgent();
    await until(async () => (await wg.peers(180)).size === 0, 15_000);
    expect(await pings(c2.ns, gateway)).toBe(false);
  });

  test('a lost dispute stops the tunnel within 2 s', async () => {
    // A dispute comes only from Stripe: an API whose payments are Stripe's (its stand-in), which the relay follows from now on.
    const withStripe = await startVeilApi({ dir: mkdtempSync(join(dir, 'stripe-')), serverId: SERVER_ID, publicKey: relayKeys.publicKey, endpointHost: ENDPOINT, token: TOKEN, payments: 'stripe' });
    try {
      await stopAgent();
      proxy.switchTo(withStripe.url);
      startAgent();
      const hal = await connect('hal', c1, withStripe);
      await stopsWithinTwoSeconds('lost dispute', hal, () => hal.account.loseDispute());
    } finally {
      await stopAgent();
      proxy.switchTo(veil.url);
      await withStripe.close();
    }
  });
});

/**
 * The relay agent's own tests (issue 47, item 1), no root needed: the real agent loop (relay/agent.ts) with its
 * real API client and `wg` driver, against an API on 127.0.0.1 that answers per contract/relay.ts
 * (support/fake-relay-api.ts) and a stand-in for `wg` that keeps the interface in the test process (support/fake-interface.ts).
 * Every answer of the item 1 has its test: full list at start, long-poll changes, 304, 410, 401/404
 * (one line and exit 1, from the real process), 5xx and network errors, lower versions, schema-invalid answers,
 * a mass removal, expiry without the API, reconcile after a hand-made change, the idle reset and health.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { Peer, RelaySettings } from '../../contract/relay.ts';
import { RelayAgent } from '../../relay/agent.ts';
import { apiClient, FatalApiError } from '../../relay/api-client.ts';
import type { AgentConfig } from '../../relay/config.ts';
import { wgDriver } from '../../relay/wg-driver.ts';
import { until } from '../support/until.ts';
import { FakeInterface, newKeyPair } from './support/fake-interface.ts';
import { FakeRelayApi, json } from './support/fake-relay-api.ts';

const TOKEN = 'relay-agent-test-token-0123456789';
const DAY_MS = 86_400_000;

let peerNumber = 1;
function newPeer(expiresInMs = DAY_MS): Peer {
  const n = peerNumber++;
  return { publicKey: newKeyPair().publicKey, ipv4Address: `10.64.${n >> 8}.${n & 255}`, ipv6Address: `fd76:6569:6c00::${n.toString(16)}`, expiresAt: new Date(Date.now() + expiresInMs).toISOString() };
}
const allowed = (peer: Peer) => [`${peer.ipv4Address}/32`, `${peer.ipv6Address}/128`].sort();

interface Harness {
  api: FakeRelayApi;
  iface: FakeInterface;
  agent: RelayAgent;
  running: Promise<void>;
  logs: Array<Record<string, unknown>>;
  warnings: string[];
}
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function settingsFor(publicKey: string, overrides: Partial<RelaySettings> = {}): RelaySettings {
  return { serverId: 'us-nyc-1', publicKey, listenPort: 51820, gatewayIpv4: '10.64.0.1', gatewayIpv6: 'fd76:6569:6c00::1', ipv4Pool: '10.64.0.0/10', ipv6Pool: 'fd76:6569:6c00::/48', healthIntervalSeconds: 60, ...overrides };
}

function configFor(api: FakeRelayApi, iface: FakeInterface, overrides: Partial<AgentConfig> = {}): AgentConfig {
  return {
    apiUrl: api.url,
    token: TOKEN,
    interfaceName: iface.name,
    wgCommand: iface.wgCommand,
    pollWaitSeconds: 2,
    backoffBaseMs: 100,
    backoffMaxMs: 400,
    idleResetSeconds: 600,
    idleAfterSeconds: 180,
    massRemovalConfirmMs: 300,
    fullSyncSeconds: 600,
    minPollIntervalMs: 50,
    ...overrides,
  };
}

async function startAgent({ peers = [] as Peer[], config = {} as Partial<AgentConfig>, settings = {} as Partial<RelaySettings>, api: givenApi, iface: givenIface }: { peers?: Peer[]; config?: Partial<AgentConfig>; settings?: Partial<RelaySettings>; api?: FakeRelayApi; iface?: FakeInterface } = {}): Promise<Harness> {
  const iface = givenIface ?? new FakeInterface('veiltest0', newKeyPair().publicKey);
  const api = givenApi ?? (await new FakeRelayApi(TOKEN, settingsFor(iface.publicKey, settings)).start());
  if (!givenApi) {
    if (peers.length) api.add(...peers);
    cleanups.push(() => api.stop(), () => iface.remove());
  }
  const fullConfig = configFor(api, iface, config);
  const logs: Array<Record<string, unknown>> = [];
  const warnings: string[] = [];
  const agent = new RelayAgent(fullConfig, {
    api: apiClient(fullConfig.apiUrl, fullConfig.token),
    wg: wgDriver(fullConfig.wgCommand, fullConfig.interfaceName),
    log: (event, fields = {}) => logs.push({ event, ...fields }),
    warn: (line) => warnings.push(line),
  });
  const running = agent.run();
  running.catch(() => undefined);
  cleanups.push(async () => {
    agent.stop();
    await running.catch(() => undefined);
  });
  return { api, iface, agent, running, logs, warnings };
}

const appliedVersion = (harness: Harness, version: number) => until(() => harness.agent.appliedVersion === version, 10_000);

describe('the relay agent against a contract API and a stand-in wg', () => {
  test('fetches the full list at start and sets each peer with its two addresses, per peer', async () => {
    const [a, b] = [newPeer(), newPeer()];
    const harness = await startAgent({ peers: [a!, b!] });
    await appliedVersion(harness, harness.api.version);
    const state = harness.iface.read();
    expect(Object.keys(state.peers).sort()).toEqual([a!.publicKey, b!.publicKey].sort());
    expect(state.peers[a!.publicKey]!.allowedIps).toEqual(allowed(a!));
    expect(harness.api.requests[0]).toBe('GET /api/relay/v1/settings');
    expect(harness.api.requests[1]).toBe('GET /api/relay/v1/peers');
    // Only `show` and `set … peer …`: never setconf/syncconf/addconf.
    expect(new Set(harness.iface.calls().map((call) => call[0]))).toEqual(new Set(['show', 'set']));
  });

  test('then long-polls ?since=V&wait=S and applies a change as soon as the API answers it', async () => {
    const a = newPeer();
    const harness = await startAgent({ peers: [a] });
    await appliedVersion(harness, harness.api.version);
    await until(() => harness.api.requests.some((request) => request === `GET /api/relay/v1/peers?since=${harness.api.version}&wait=2`));
    const b = newPeer();
    const before = Date.now();
    harness.api.add(b);
    await until(() => harness.iface.keys().includes(b.publicKey), 5000);
    expect(Date.now() - before).toBeLessThan(1500);
    harness.api.remove(a.publicKey);
    await until(() => !harness.iface.keys().includes(a.publicKey), 5000);
    expect(harness.iface.keys()).toEqual([b.publicKey]);
    // The version is recorded once the whole answer is applied, a moment after its last `wg set`.
    await appliedVersion(harness, harness.api.version);
  });

  test('304 changes nothing and polling goes on', async () => {
    const a = newPeer();
    const harness = await startAgent({ peers: [a] });
    await appliedVersion(harness, harness.api.version);
    const setsBefore = harness.iface.setWords().length;
    harness.api.answerNext((response) => response.writeHead(304).end(), (response) => response.writeHead(304).end());
    await until(() => harness.api.scripted.length === 0);
    const b = newPeer();
    harness.api.add(b);
    await until(() => harness.iface.keys().includes(b.publicKey));
    expect(harness.iface.setWords().slice(setsBefore)).toEqual(['peer', b.publicKey, 'allowed-ips', allowed(b).join(',')]);
  });

  test('410 fetches the full list again and reconciles', async () => {
    const a = newPeer();
    const harness = await startAgent({ peers: [a] });
    await appliedVersion(harness, harness.api.version);
    const fullListsBefore = harness.api.requests.filter((request) => request === 'GET /api/relay/v1/peers').length;
    // The log no longer reaches back to what the agent applied.
    const b = newPeer();
    harness.api.floor = harness.api.version + 1;
    harness.api.add(b);
    await until(() => harness.iface.keys().includes(b.publicKey));
    expect(harness.api.requests.filter((request) => request === 'GET /api/relay/v1/peers').length).toBe(fullListsBefore + 1);
    expect(harness.logs.some((line) => line.event === 'version_gone')).toBe(true);
  });

  test.each([401, 404])('%i stops the agent with a fatal error, changing nothing', async (status) => {
    const a = newPeer();
    const harness = await startAgent({ peers: [a] });
    await appliedVersion(harness, harness.api.version);
    harness.api.answerNext((response) => json(response, status, { error: { code: 'x' } }));
    await expect(harness.running).rejects.toBeInstanceOf(FatalApiError);
    expect(harness.iface.keys()).toEqual([a.publicKey]);
  });

  test('401 from the real process: one line on stderr and exit code 1', async () => {
    const iface = new FakeInterface('veiltest0', newKeyPair().publicKey);
    const api = await new FakeRelayApi('another-token', settingsFor(iface.publicKey)).start();
    cleanups.push(() => api.stop(), () => iface.remove());
    const root = join(import.meta.dirname, '..', '..');
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'relay', 'main.ts')], {
      cwd: root,
      env: { ...process.env, RELAY_API_URL: api.url, RELAY_TOKEN: TOKEN, RELAY_INTERFACE: iface.name, WG_COMMAND: iface.wgCommand },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual(['relay agent: the API refused RELAY_TOKEN (401): check the token for this server']);
  }, 30_000);

  test('the compiled agent (npm run build:relay) runs from its folder alone: syncs, then stops cleanly on SIGTERM', async () => {
    const out = mkdtempSync(join(tmpdir(), 'veil-dist-relay-'));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }));
    const root = join(import.meta.dirname, '..', '..');
    execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.relay.config.ts'], { cwd: root, env: { ...process.env, RELAY_BUILD_OUT_DIR: out }, stdio: 'ignore' });
    const a = newPeer();
    const iface = new FakeInterface('veiltest0', newKeyPair().publicKey);
    const api = await new FakeRelayApi(TOKEN, settingsFor(iface.publicKey)).start();
    cleanups.push(() => api.stop(), () => iface.remove());
    api.add(a);
    // Run from a folder with no node_modules: zod, contract/ and relay/ are in the bundle.
    const child = spawn(process.execPath, [join(out, 'main.js')], {
      cwd: out,
      env: { PATH: process.env.PATH, RELAY_API_URL: api.url, RELAY_TOKEN: TOKEN, RELAY_INTERFACE: iface.name, WG_COMMAND: iface.wgCommand },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await until(() => iface.keys().includes(a.publicKey), 20_000);
    // The line is written after the list's last `wg set`, so it can reach the pipe a moment after the key is
    // seen on the interface (a fresh clone's CI caught the check racing it).
    await until(() => output.includes('"event":"full_list_applied"'), 5_000);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  test('5xx and network errors keep every peer and retry with backoff until the API is back', async () => {
    const [a, b] = [newPeer(), newPeer()];
    const harness = await startAgent({ peers: [a, b] });
    await appliedVersion(harness, harness.api.version);
    harness.api.answerNext(...Array.from({ length: 3 }, () => (response: import('node:http').ServerResponse) => json(response, 503, {})));
    await until(() => harness.logs.filter((line) => line.event === 'poll_failed' && line.status === 503).length === 3);
    const port = harness.api.port;
    await harness.api.stop();
    await until(() => harness.logs.filter((line) => line.event === 'poll_failed' && line.status === null).length >= 2);
    const failures = harness.logs.filter((line) => line.event === 'poll_failed');
    // Exponential up to the cap (100 ms doubling, capped at 400 ms), each with jitter between half and whole.
    for (const line of failures) expect(line.retryInMs).toBeLessThanOrEqual(400);
    expect(failures[2]!.retryInMs).toBeGreaterThanOrEqual(200);
    expect(harness.iface.setWords()).not.toContain('remove');
    expect(harness.iface.keys()).toEqual([a.publicKey, b.publicKey].sort());
    const c = newPeer();
    harness.api.add(c);
    await harness.api.start(port);
    await until(() => harness.iface.keys().includes(c.publicKey), 10_000);
  });

  test('an answer with a lower version than the one applied is ignored', async () => {
    const [a, b] = [newPeer(), newPeer()];
    const harness = await startAgent({ peers: [a, b] });
    await appliedVersion(harness, harness.api.version);
    const applied = harness.api.version;
    harness.api.answerNext((response) => json(response, 200, { version: applied - 1, added: [], removed: [a.publicKey] }));
    await until(() => harness.logs.some((line) => line.event === 'answer_ignored'));
    expect(harness.iface.keys()).toEqual([a.publicKey, b.publicKey].sort());
    expect(harness.agent.appliedVersion).toBe(applied);
  });

  test('an answer that fails the contract schema changes nothing', async () => {
    const [a, b] = [newPeer(), newPeer()];
    const harness = await startAgent({ peers: [a, b] });
    await appliedVersion(harness, harness.api.version);
    harness.api.answerNext(
      (response) => json(response, 200, { version: harness.api.version + 5, added: [{ publicKey: 'x' }], removed: [a.publicKey] }),
      (response) => json(response, 200, { version: 'nine', peers: [] }),
      (response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"version": 9, "pee'),
    );
    await until(() => harness.logs.filter((line) => line.event === 'poll_failed' && line.contractMismatch === true).length === 3);
    expect(harness.iface.keys()).toEqual([a.publicKey, b.publicKey].sort());
    expect(harness.iface.setWords()).not.toContain('remove');
  });

  test('a full list that removes more than half of the peers is applied only when a second one agrees', async () => {
    const peers = [newPeer(), newPeer(), newPeer()];
    const harness = await startAgent({ peers, config: { massRemovalConfirmMs: 1500 } });
    await appliedVersion(harness, harness.api.version);
    // A full list that lost two of three (say, a wrong database): held, nothing removed.
    harness.api.answerNext((response) => json(response, 200, { version: harness.api.version + 1, peers: [peers[0]] }));
    harness.api.floor = harness.api.version + 1;
    harness.api.add();
    await until(() => harness.logs.some((line) => line.event === 'mass_removal_held'), 5000);
    expect(harness.warnings[0]).toMatch(/would remove 2 of 3 peers at once/);
    // The second full list a moment later has them all again: nothing was ever removed.
    await until(() => harness.logs.some((line) => line.event === 'full_list_applied' && line.version === harness.api.version), 5000);
    expect(harness.iface.keys()).toHaveLength(3);
    expect(harness.iface.setWords()).not.toContain('remove');
    // Really gone (an empty list twice): removed once the second list agrees, not before.
    harness.api.floor = harness.api.version + 2;
    harness.api.remove(...peers.map((peer) => peer.publicKey));
    await until(() => harness.logs.filter((line) => line.event === 'mass_removal_held').length === 2);
    const heldAt = Date.now();
    expect(harness.iface.keys()).toHaveLength(3);
    await until(() => harness.iface.keys().length === 0, 10_000);
    expect(Date.now() - heldAt).toBeGreaterThanOrEqual(1000);
    expect(harness.logs.some((line) => line.event === 'mass_removal_confirmed')).toBe(true);
  });

  test('a restarted agent handed an empty full list does not empty a full interface until a second list agrees', async () => {
    const peers = [newPeer(), newPeer()];
    const iface = new FakeInterface('veiltest0', newKeyPair().publicKey);
    iface.update((state) => {
      for (const peer of peers) state.peers[peer.publicKey] = { allowedIps: allowed(peer), handshake: 0 };
    });
    const api = await new FakeRelayApi(TOKEN, settingsFor(iface.publicKey)).start();
    cleanups.push(() => api.stop(), () => iface.remove());
    api.add(...peers);
    // The API answers from an empty database once (say, a wrong DATABASE_URL at a deploy), then the right one.
    api.answerNext((response) => json(response, 200, { version: 0, peers: [] }));
    const harness = await startAgent({ api, iface, config: { massRemovalConfirmMs: 500 } });
    await appliedVersion(harness, api.version);
    expect(harness.logs.find((line) => line.event === 'mass_removal_held')).toMatchObject({ peers: 2, removing: 2 });
    expect(iface.setWords()).not.toContain('remove');
    expect(iface.keys()).toEqual(peers.map((peer) => peer.publicKey).sort());
  });

  test('each key leaves at its expiresAt, by the agent itself, while the API cannot be reached', async () => {
    const soon = newPeer(2000);
    const paid = newPeer();
    const alreadyOver = newPeer(-1000);
    const harness = await startAgent({ peers: [soon, paid, alreadyOver] });
    await appliedVersion(harness, harness.api.version);
    expect(harness.iface.keys()).toEqual([soon.publicKey, paid.publicKey].sort());
    await harness.api.stop();
    const expiresAt = Date.parse(soon.expiresAt);
    await until(() => !harness.iface.keys().includes(soon.publicKey), 5000);
    const late = Date.now() - expiresAt;
    expect(late).toBeGreaterThanOrEqual(-50);
    expect(late).toBeLessThan(1000);
    expect(harness.iface.keys()).toEqual([paid.publicKey]);
  });

  test('after every full list it reconciles with the interface: a restart repairs hand-made changes', async () => {
    const [a, b] = [newPeer(), newPeer()];
    const first = await startAgent({ peers: [a, b] });
    await appliedVersion(first, first.api.version);
    first.agent.stop();
    await first.running;
    // By hand: one listed peer removed, one stranger added, one peer's addresses changed.
    const stranger = newPeer();
    first.iface.update((state) => {
      delete state.peers[a.publicKey];
      state.peers[stranger.publicKey] = { allowedIps: allowed(stranger), handshake: 0 };
      state.peers[b.publicKey]!.allowedIps = ['10.99.0.1/32'];
    });
    const second = await startAgent({ api: first.api, iface: first.iface });
    await appliedVersion(second, first.api.version);
    const state = second.iface.read();
    expect(Object.keys(state.peers).sort()).toEqual([a.publicKey, b.publicKey].sort());
    expect(state.peers[b.publicKey]!.allowedIps).toEqual(allowed(b));
  });

  test('refuses to run on an interface whose public key is not the one the API lists for its server', async () => {
    const iface = new FakeInterface('veiltest0', newKeyPair().publicKey);
    const api = await new FakeRelayApi(TOKEN, settingsFor(newKeyPair().publicKey)).start();
    cleanups.push(() => api.stop(), () => iface.remove());
    const harness = await startAgent({ api, iface });
    await expect(harness.running).rejects.toThrow(/refusing to run/);
    expect(api.requests.filter((request) => request.includes('/peers'))).toEqual([]);
  });

  test('every idle-reset interval, peers idle for 180 s are removed and set again; active and never-connected ones are left', async () => {
    const [active, idle, never] = [newPeer(), newPeer(), newPeer()];
    const harness = await startAgent({ peers: [active, idle, never], config: { idleResetSeconds: 1 } });
    await appliedVersion(harness, harness.api.version);
    const now = Math.floor(Date.now() / 1000);
    harness.iface.update((state) => {
      state.peers[active.publicKey]!.handshake = now - 30;
      state.peers[idle.publicKey]!.handshake = now - 400;
    });
    const before = harness.iface.calls().length;
    await until(() => harness.logs.some((line) => line.event === 'idle_peers_reset'), 5000);
    const sets = harness.iface
      .calls()
      .slice(before)
      .filter((call) => call[0] === 'set')
      .map((call) => call.slice(2));
    expect(sets).toEqual([
      ['peer', idle.publicKey, 'remove'],
      ['peer', idle.publicKey, 'allowed-ips', allowed(idle).join(',')],
    ]);
    const state = harness.iface.read();
    expect(state.peers[idle.publicKey]).toEqual({ allowedIps: allowed(idle), handshake: 0 });
    expect(state.peers[active.publicKey]!.handshake).toBe(now - 30);
    expect(harness.logs.find((line) => line.event === 'idle_peers_reset')).toMatchObject({ peers: 1 });
  });

  test('reports health (counts only) every healthIntervalSeconds; its log lines carry no key, address or endpoint', async () => {
    const [a, b] = [newPeer(), newPeer()];
    const harness = await startAgent({ peers: [a, b], settings: { healthIntervalSeconds: 1 } });
    await appliedVersion(harness, harness.api.version);
    harness.iface.update((state) => {
      state.peers[a.publicKey]!.handshake = Math.floor(Date.now() / 1000) - 5;
    });
    await until(() => harness.api.healthReports.length >= 2, 5000);
    const report = harness.api.healthReports.at(-1)!;
    expect(report).toEqual({ versionApplied: harness.api.version, peers: 2, activePeers: 1, uptimeSeconds: expect.any(Number), agentVersion: expect.any(String) });
    const logText = JSON.stringify(harness.logs);
    for (const secret of [a.publicKey, b.publicKey, a.ipv4Address, a.ipv6Address, '203.0.113.9', '1234', '5678']) expect(logText).not.toContain(secret);
  });
});

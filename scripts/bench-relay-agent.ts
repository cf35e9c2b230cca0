/**
 * The relay agent at the scale of a real service (issue 47, item 5), as root with Debian's wireguard-go: a
 * wireguard-go interface in a network namespace of its own (tests/relay/support/netns.ts), the real agent
 * (relay/agent.ts) driving it through `wg`, and a contract API on 127.0.0.1 (tests/relay/support/fake-relay-api.ts)
 * listing BENCH_PEERS peers (60,000: wireguard-go refuses a peer beyond 65,536, its MaxPeers, with "Invalid
 * argument"; a kernel interface has no such limit, so 100,000 peers need the kernel module). Measures the first full sync (time, the agent's and wireguard-go's
 * memory), a long-polled change of a few peers applied (p50/p99 from the API's change to the interface
 * holding it), and revoke-to-gone (from the API's removal to `wg set … remove` done) with every peer listed.
 * Prints the load average before and after: on a shared machine the figures are only comparable with it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Peer } from '../contract/relay.ts';
import { RelayAgent } from '../relay/agent.ts';
import { apiClient } from '../relay/api-client.ts';
import { wgDriver } from '../relay/wg-driver.ts';
import { newKeyPair } from '../tests/relay/support/fake-interface.ts';
import { FakeRelayApi } from '../tests/relay/support/fake-relay-api.ts';
import { ifName, sh, sweepLeftovers, Topology, whyNetnsCannotRun } from '../tests/relay/support/netns.ts';
import { loadAverage } from './lib/bench-figures.ts';

const PEERS = Number(process.env.BENCH_PEERS ?? 60_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const CHANGES = 5;
const TOKEN = randomBytes(24).toString('hex');

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const far = new Date(Date.now() + 86_400_000).toISOString();
let serial = 0;
function newPeer(): Peer {
  const n = (serial += 1);
  // Any 32 bytes are a public key to `wg`; making 100,000 real key pairs would only time Node's X25519.
  return { publicKey: randomBytes(32).toString('base64'), ipv4Address: `10.${64 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`, ipv6Address: `fd76:6569:6c00::${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}`, expiresAt: far };
}
const vmRss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

async function main() {
  const cannot = whyNetnsCannotRun();
  if (cannot) throw new Error(`bench:relay-agent needs root and wireguard-go: ${cannot}`);
  console.log(`load average before: ${loadAverage()} (${process.env.BENCH_NOTE ?? 'machine shared with other work'})`);
  await sweepLeftovers();
  const topology = new Topology();
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-relay-agent-'));
  const keys = newKeyPair();
  const iface = ifName('bench');
  const api = await new FakeRelayApi(TOKEN, {
    serverId: 'bench-1',
    publicKey: keys.publicKey,
    listenPort: 51820,
    gatewayIpv4: '10.64.0.1',
    gatewayIpv6: 'fd76:6569:6c00::1',
    ipv4Pool: '10.64.0.0/10',
    ipv6Pool: 'fd76:6569:6c00::/48',
    healthIntervalSeconds: 3600,
  }).start();
  const events: Array<{ event: string; at: number; version?: unknown }> = [];
  let agent: RelayAgent | null = null;
  try {
    const ns = await topology.addNamespace('bench');
    await topology.wireguard(ns, iface);
    writeFileSync(join(dir, 'key'), keys.privateKey, { mode: 0o600 });
    await sh('wg', ['set', iface, 'private-key', join(dir, 'key'), 'listen-port', '51820']);
    const peers = Array.from({ length: PEERS }, newPeer);
    api.add(...peers);
    const wireguardPid = Number((await sh('ip', ['netns', 'pids', ns])).trim().split('\n')[0]);
    const config = {
      apiUrl: api.url,
      token: TOKEN,
      interfaceName: iface,
      wgCommand: 'wg',
      pollWaitSeconds: 25,
      backoffBaseMs: 200,
      backoffMaxMs: 2000,
      idleResetSeconds: 3600,
      idleAfterSeconds: 180,
      massRemovalConfirmMs: 5000,
      fullSyncSeconds: 3600,
      minPollIntervalMs: 100,
    };
    const rssBefore = process.memoryUsage().rss;
    agent = new RelayAgent(config, { api: apiClient(api.url, TOKEN), wg: wgDriver('wg', iface), log: (event, fields = {}) => void events.push({ event, at: performance.now(), version: fields.version }) });
    const started = performance.now();
    const running = agent.run();
    running.catch((error: unknown) => console.error(error));
    while (agent.appliedVersion !== api.version) await new Promise((resolve) => setTimeout(resolve, 50));
    const syncMs = performance.now() - started;
    const held = (await wgDriver('wg', iface).peers(180)).size;
    console.log(`first full sync: ${PEERS} peers in ${(syncMs / 1000).toFixed(1)} s (the interface holds ${held}); agent RSS ${mib(process.memoryUsage().rss)} (${mib(rssBefore)} before, the API's list included), wireguard-go RSS ${mib(vmRss(wireguardPid))}`);

    const waitForVersion = async (version: number) => {
      while ((agent?.appliedVersion ?? 0) < version) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    await new Promise((resolve) => setTimeout(resolve, 500));
    const changeMs: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const gone = peers.splice(0, CHANGES).map((peer) => peer.publicKey);
      const added = Array.from({ length: CHANGES }, newPeer);
      peers.push(...added);
      const at = performance.now();
      api.remove(...gone);
      api.add(...added);
      await waitForVersion(api.version);
      changeMs.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(`a long-polled change (${CHANGES} removed, ${CHANGES} added) applied: p50 ${percentile(changeMs, 50).toFixed(1)} ms, p99 ${percentile(changeMs, 99).toFixed(1)} ms over ${ROUNDS} rounds`);

    const revokeMs: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const [victim] = peers.splice(0, 1);
      const at = performance.now();
      api.remove(victim!.publicKey);
      await waitForVersion(api.version);
      revokeMs.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(`revoke to gone with ${peers.length} peers listed: p50 ${percentile(revokeMs, 50).toFixed(1)} ms, p99 ${percentile(revokeMs, 99).toFixed(1)} ms over ${ROUNDS} rounds`);
    agent.stop();
    await running.catch(() => undefined);
  } finally {
    agent?.stop();
    await api.stop();
    await topology.destroy();
    rmSync(dir, { recursive: true, force: true });
    console.log(`load average after: ${loadAverage()}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * The relay agent against the real API (issue 47: "the agent's own tests cover every answer against a real
 * API process"), no root needed: the API as server/main.ts builds it, listening on 127.0.0.1 (support/veil-api.ts),
 * behind a switchable proxy; the interface is the stand-in `wg` (support/fake-interface.ts). Customers' lives go
 * through the API's own calls. Covered here: the full list at start with each peer's expiresAt, the long poll
 * (`?since=V&wait=25`) carrying an added and a revoked key within a second, the health report the API takes
 * and shows on the public status, 410 from an API whose list is behind (then its lower version is ignored),
 * network errors (every peer kept), 401 and 404.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serversStatusAnswerSchema } from '../../contract/relay.ts';
import { RelayAgent } from '../../relay/agent.ts';
import { apiClient, FatalApiError } from '../../relay/api-client.ts';
import type { AgentConfig } from '../../relay/config.ts';
import { wgDriver } from '../../relay/wg-driver.ts';
import { until } from '../support/until.ts';
import { FakeInterface, newKeyPair } from './support/fake-interface.ts';
import { SwitchProxy } from './support/switch-proxy.ts';
import { startVeilApi, type VeilApi } from './support/veil-api.ts';

const TOKEN = 'relay-agent-real-api-token-0123456789abcdef';
const SERVER_ID = 'relay-agent-test-1';

describe('the relay agent against the real API', () => {
  const dir = mkdtempSync(join(tmpdir(), 'veil-relay-real-api-'));
  const relayKeys = newKeyPair();
  const iface = new FakeInterface('veilreal0', relayKeys.publicKey);
  let veil: VeilApi;
  let proxy: SwitchProxy;
  let agent: RelayAgent;
  let running: Promise<void>;
  const logs: Array<Record<string, unknown>> = [];

  const config = (apiUrl: string, token = TOKEN): AgentConfig => ({
    apiUrl,
    token,
    interfaceName: iface.name,
    wgCommand: iface.wgCommand,
    pollWaitSeconds: 25,
    backoffBaseMs: 100,
    backoffMaxMs: 500,
    idleResetSeconds: 600,
    idleAfterSeconds: 180,
    massRemovalConfirmMs: 500,
    fullSyncSeconds: 600,
    minPollIntervalMs: 100,
  });
  function newAgent(settings: AgentConfig) {
    return new RelayAgent(settings, {
      api: apiClient(settings.apiUrl, settings.token),
      wg: wgDriver(settings.wgCommand, settings.interfaceName),
      log: (event, fields = {}) => logs.push({ event, ...fields }),
      warn: () => undefined,
    });
  }

  beforeAll(async () => {
    veil = await startVeilApi({ dir, serverId: SERVER_ID, publicKey: relayKeys.publicKey, endpointHost: '127.0.0.1', token: TOKEN });
    proxy = await new SwitchProxy(veil.url).start();
  });

  afterAll(async () => {
    agent?.stop();
    await running?.catch(() => undefined);
    await proxy?.close();
    await veil?.close();
    iface.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  test('full list at start, then a long poll that carries an added and a revoked key within a second; health reaches the status page', async () => {
    const ada = veil.customer('ada');
    await ada.subscribe();
    const first = await ada.addDevice(newKeyPair().publicKey);
    agent = newAgent(config(proxy.url));
    running = agent.run();
    running.catch(() => undefined);
    await until(() => iface.keys().includes(first.publicKey), 10_000);
    expect(iface.read().peers[first.publicKey]!.allowedIps).toEqual([`${first.ipv4Address}/32`, `${first.ipv6Address}/128`].sort());
    // Waiting on the long poll, a change arrives as soon as it is made.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const added = await ada.addDevice(newKeyPair().publicKey);
    const addedAt = Date.now();
    await until(() => iface.keys().includes(added.publicKey), 5000);
    expect(Date.now() - addedAt).toBeLessThan(1000);
    await ada.revoke(added.id);
    const revokedAt = Date.now();
    await until(() => !iface.keys().includes(added.publicKey), 5000);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    // Logged once the whole answer is applied, a moment after its last `wg set`.
    await until(() => logs.filter((line) => line.event === 'changes_applied').length >= 2, 5000);
    // The first health report goes out after the first list; the API keeps it and the status page shows the server online.
    await until(() => logs.some((line) => line.event === 'health_reported'), 5000);
    const status = serversStatusAnswerSchema.parse(await (await fetch(`${veil.url}/api/vpn/servers/status`)).json());
    expect(status.servers.find((server) => server.id === SERVER_ID)).toMatchObject({ online: true });
  });

  test('the API down: every peer is kept and the agent retries with backoff until it is back', async () => {
    const before = iface.keys();
    proxy.switchTo(null);
    await until(() => logs.filter((line) => line.event === 'poll_failed' && line.status === null).length >= 3, 5000);
    expect(iface.keys()).toEqual(before);
    proxy.switchTo(veil.url);
    const bea = veil.customer('bea');
    await bea.subscribe();
    const device = await bea.addDevice(newKeyPair().publicKey);
    await until(() => iface.keys().includes(device.publicKey), 10_000);
  });

  test('410 from an API whose list is behind the version applied: the full list is fetched again, and its lower version ignored', async () => {
    const behind = await startVeilApi({ dir: mkdtempSync(join(dir, 'behind-')), serverId: SERVER_ID, publicKey: relayKeys.publicKey, endpointHost: '127.0.0.1', token: TOKEN });
    try {
      const kept = iface.keys();
      const applied = agent.appliedVersion!;
      proxy.switchTo(behind.url);
      await until(() => logs.some((line) => line.event === 'version_gone'), 5000);
      await until(() => logs.some((line) => line.event === 'answer_ignored' && line.versionApplied === applied), 5000);
      expect(iface.keys()).toEqual(kept);
      expect(agent.appliedVersion).toBe(applied);
    } finally {
      proxy.switchTo(veil.url);
      await behind.close();
    }
  });

  test('401 for a wrong token and 404 from an API without relay tokens end the agent (fatal), changing nothing', async () => {
    const kept = iface.keys();
    const wrong = newAgent(config(veil.url, 'not-the-relay-token-0123456789abcdef'));
    await expect(wrong.run()).rejects.toThrow(new FatalApiError('the API refused RELAY_TOKEN (401): check the token for this server'));
    const without = await startVeilApi({ dir: mkdtempSync(join(dir, 'none-')), serverId: SERVER_ID, publicKey: relayKeys.publicKey, endpointHost: '127.0.0.1', token: TOKEN, relayTokens: false });
    try {
      await expect(newAgent(config(without.url)).run()).rejects.toThrow(/\(404\)/);
    } finally {
      await without.close();
    }
    expect(iface.keys()).toEqual(kept);
  });
});

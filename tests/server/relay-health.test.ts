/**
 * What a VPN server asks and tells with its relay token (issue 47, item 2): its own settings (GET
 * /api/relay/v1/settings) and its aggregate health report (POST /api/relay/v1/health), of which only the
 * latest is kept, plus a daily tally of the report intervals; the per-server metrics built from them.
 */
import { expect, test } from 'vitest';
import { relayHealthReportSchema, relaySettingsSchema } from '../../contract/relay';
import { relayServers, relayUptimeDays } from '../../server/db/schema';
import { DEMO_CATALOGUE } from '../../server/vpn/catalogue';
import { describeApi } from '../support/describe-api';
import { nameVerifier as verifier, type TestApi } from '../support/server-harness';
import { RELAY_TOKEN } from '../support/wireguard';

// The token ids are the demo catalogue's server ids; `stray` names no catalogue server.
const LAGOS_TOKEN = 'lagos-relay-token-for-tests-0123456789abcdef';
const env = { RATE_LIMIT_SCALE: '10', RELAY_TOKENS: `us-nyc-1:${RELAY_TOKEN},ng-lagos-1:${LAGOS_TOKEN},stray:stray-relay-token-for-tests-0123456789` };

const report = { versionApplied: 0, peers: 12, activePeers: 5, uptimeSeconds: 3600, agentVersion: '1.0.0' };

async function sendReport(api: TestApi, body: unknown, token = RELAY_TOKEN) {
  const response = await api.app.inject({ method: 'POST', url: '/api/relay/v1/health', headers: { authorization: `Bearer ${token}` }, payload: body as object });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

async function settings(api: TestApi, token: string) {
  const response = await api.app.inject({ method: 'GET', url: '/api/relay/v1/settings', headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

const metricsText = async (api: TestApi) => (await api.app.inject({ method: 'GET', url: '/api/metrics' })).body;
const metricOf = (text: string, name: string, server: string) =>
  Number(text.split('\n').find((line) => line.startsWith(`${name}{server="${server}"} `))?.split(' ')[1]);

describeApi('the relay settings and health report', { layer: 'sql', verifier, env }, (api) => {
  test("settings: the token's catalogue server's port, key and gateway addresses, the pools and the report interval", async () => {
    const answer = await settings(api, RELAY_TOKEN);
    expect(answer.status).toBe(200);
    const server = DEMO_CATALOGUE.servers[0]!;
    expect(relaySettingsSchema.parse(answer.body)).toEqual({
      serverId: 'us-nyc-1',
      publicKey: server.publicKey,
      listenPort: server.endpointPort,
      gatewayIpv4: '10.64.0.1',
      gatewayIpv6: 'fd76:6569:6c00::1',
      ipv4Pool: '10.64.0.0/10',
      ipv6Pool: 'fd76:6569:6c00::/48',
      healthIntervalSeconds: 60,
    });
    expect((await settings(api, LAGOS_TOKEN)).body).toMatchObject({ serverId: 'ng-lagos-1', publicKey: DEMO_CATALOGUE.servers[1]!.publicKey });
    expect(await settings(api, 'stray-relay-token-for-tests-0123456789')).toMatchObject({ status: 404, body: { success: false, code: 'not_found' } });
    expect(await settings(api, 'wrong')).toMatchObject({ status: 401, body: { success: false, code: 'relay_token_invalid' } });
  });

  test('a wrong token is a 401 as on the peer list; a report that is not the contract is a 400 JSON error', async () => {
    expect(await sendReport(api, report, 'wrong')).toMatchObject({ status: 401, body: { success: false, code: 'relay_token_invalid' } });
    // Refused before the body is read: a wrong token learns nothing, not even that the body is malformed.
    expect((await sendReport(api, { peers: 'many' }, 'wrong')).status).toBe(401);
    for (const body of [{}, { ...report, peers: -1 }, { ...report, activePeers: 1.5 }, { ...report, agentVersion: '' }, { ...report, agentVersion: 'x'.repeat(41) }]) {
      const answer = await sendReport(api, body);
      expect(answer).toMatchObject({ status: 400, body: { success: false, code: 'validation_failed' } });
      expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(await api.database.db.select().from(relayServers)).toEqual([]);
  });

  test('only the latest report per server is kept, and each report interval is counted once in the daily tally', async () => {
    expect(relayHealthReportSchema.parse(report)).toEqual(report);
    expect(await sendReport(api, report)).toEqual({ status: 200, body: { success: true } });
    expect((await sendReport(api, { ...report, peers: 20, activePeers: 9 })).status).toBe(200);
    expect((await sendReport(api, { ...report, peers: 3 }, LAGOS_TOKEN)).status).toBe(200);
    const rows = await api.database.db.select().from(relayServers);
    expect(rows.map((row) => [row.serverId, row.peers, row.activePeers]).sort()).toEqual([
      ['ng-lagos-1', 3, 5],
      ['us-nyc-1', 20, 9],
    ]);
    // Two reports in one interval (a minute) count once.
    const tally = await api.database.db.select().from(relayUptimeDays);
    expect(tally.map((row) => [row.serverId, row.intervals]).sort()).toEqual([
      ['ng-lagos-1', 1],
      ['us-nyc-1', 1],
    ]);
  });

  test('the tally keeps the 90 days the status shows (and today): older days go at the next report', async () => {
    const old = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const kept = new Date(Date.now() - 80 * 86_400_000).toISOString().slice(0, 10);
    await api.database.db.insert(relayUptimeDays).values([
      { serverId: 'us-nyc-1', day: old, intervals: 1440 },
      { serverId: 'us-nyc-1', day: kept, intervals: 1440 },
    ]);
    expect((await sendReport(api, report)).status).toBe(200);
    const days = (await api.database.db.select().from(relayUptimeDays)).map((row) => row.day).sort();
    expect(days).toEqual([kept, new Date().toISOString().slice(0, 10)]);
  });

  test('metrics per server, labelled by its id only: peers, active peers, version lag, seconds since the report, load', async () => {
    expect((await sendReport(api, { ...report, activePeers: 25 })).status).toBe(200);
    const text = await metricsText(api);
    expect(metricOf(text, 'veil_relay_peers', 'us-nyc-1')).toBe(12);
    expect(metricOf(text, 'veil_relay_active_peers', 'us-nyc-1')).toBe(25);
    expect(metricOf(text, 'veil_relay_version_lag', 'us-nyc-1')).toBe(0);
    expect(metricOf(text, 'veil_relay_seconds_since_report', 'us-nyc-1')).toBeLessThan(5);
    // 25 active peers over the default capacity of 250.
    expect(metricOf(text, 'veil_relay_load_percent', 'us-nyc-1')).toBe(10);
    // Lagos never reported: no figure, and nothing but server ids as labels.
    expect(text).not.toContain('veil_relay_peers{server="ng-lagos-1"}');
    for (const line of text.split('\n').filter((each) => each.startsWith('veil_relay_'))) {
      expect(line).toMatch(/^veil_relay_[a-z_]+(\{(server|relay)="[a-z0-9-]+"\})? [\d.e+-]+$/);
    }
    expect(text).not.toContain(RELAY_TOKEN);
  });
});

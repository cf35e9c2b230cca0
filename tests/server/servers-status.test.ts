/**
 * GET /api/vpn/servers/status (issue 48, item 1): public and cacheable; for every catalogue server its place,
 * online (a health report within three report intervals), maintenance (the catalogue), load (active peers
 * over capacity), when it last reported, and its measured uptime from the daily tally. Nothing per customer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { serversStatusAnswerSchema } from '../../contract/relay';
import { relayUptimeDays } from '../../server/db/schema';
import { DEMO_CATALOGUE } from '../../server/vpn/catalogue';
import { describeApi } from '../support/describe-api';
import { call, nameVerifier as verifier, type TestApi } from '../support/server-harness';
import { newPublicKey, registerKey, RELAY_TOKEN } from '../support/wireguard';

const folder = mkdtempSync(join(tmpdir(), 'veil-status-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const [nyc, lagos] = DEMO_CATALOGUE.servers;
const CATALOGUE = join(folder, 'servers.json');
// New York holds 40 active peers at full load; Lagos is in maintenance with the default capacity (250).
writeFileSync(
  CATALOGUE,
  JSON.stringify({ servers: [{ ...nyc, capacity: 40, maintenance: undefined }, { ...lagos, capacity: undefined, maintenance: true }] }),
);
const LAGOS_TOKEN = 'lagos-relay-token-for-tests-0123456789abcdef';
const env = { RATE_LIMIT_SCALE: '10', VPN_SERVERS: CATALOGUE, RELAY_TOKENS: `us-nyc-1:${RELAY_TOKEN},ng-lagos-1:${LAGOS_TOKEN}` };

/** The status's clock: real time plus what a test moved it on by. */
let ahead = 0;
const statusNow = () => new Date(Date.now() + ahead);

async function report(api: TestApi, activePeers: number, token = RELAY_TOKEN) {
  const body = { versionApplied: 0, peers: activePeers + 5, activePeers, uptimeSeconds: 100, agentVersion: '1.0.0' };
  const response = await api.app.inject({ method: 'POST', url: '/api/relay/v1/health', headers: { authorization: `Bearer ${token}` }, payload: body });
  expect(response.statusCode).toBe(200);
}

async function status(api: TestApi, headers: Record<string, string> = {}) {
  const response = await api.app.inject({ method: 'GET', url: '/api/vpn/servers/status', headers });
  return { status: response.statusCode, headers: response.headers, text: response.body, body: response.body ? serversStatusAnswerSchema.parse(response.json()) : null };
}

const serverOf = (answer: Awaited<ReturnType<typeof status>>, id: string) => answer.body!.servers.find((server) => server.id === id)!;

describeApi('the servers status', { layer: 'sql', verifier, env, statusNow }, (api) => {
  test('every catalogue server, online after a report, with its load over capacity; maintenance from the catalogue', async () => {
    ahead = 0;
    const before = await status(api);
    expect(before.status).toBe(200);
    expect(before.body!.servers.map((server) => server.id)).toEqual(['us-nyc-1', 'ng-lagos-1']);
    expect(serverOf(before, 'us-nyc-1')).toMatchObject({ country: 'US', countryName: 'United States', city: 'New York', online: false, maintenance: false, load: 0, lastReportAt: null, uptime30d: null, uptime90d: null });
    expect(serverOf(before, 'us-nyc-1').days).toHaveLength(90);

    await report(api, 10);
    await report(api, 500, LAGOS_TOKEN);
    const after = await status(api);
    // 10 of 40: 25 %; Lagos 500 over the default 250 is capped at 100.
    expect(serverOf(after, 'us-nyc-1')).toMatchObject({ online: true, maintenance: false, load: 25, lastReportAt: expect.any(String) });
    expect(serverOf(after, 'ng-lagos-1')).toMatchObject({ online: true, maintenance: true, load: 100 });
  });

  test('a server silent for more than three report intervals is offline', async () => {
    ahead = 0;
    await report(api, 10);
    ahead = 179_000;
    expect(serverOf(await status(api), 'us-nyc-1')).toMatchObject({ online: true, load: 25 });
    ahead = 181_000;
    expect(serverOf(await status(api), 'us-nyc-1')).toMatchObject({ online: false, load: 0 });
    ahead = 0;
  });

  test('uptime over 30 and 90 days from the daily tally: days before tracking are null, tracked days without a count are down', async () => {
    ahead = 0;
    const now = statusNow();
    const dayAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
    // Tracked from 40 days ago: full days, except one day down entirely (20 days ago) and one half day (10 days ago).
    const rows = [];
    for (let days = 40; days >= 1; days -= 1) {
      if (days === 20) continue;
      rows.push({ serverId: 'us-nyc-1', day: dayAgo(days), intervals: days === 10 ? 720 : 1440 });
    }
    await api.database.db.insert(relayUptimeDays).values(rows);
    const answer = serverOf(await status(api), 'us-nyc-1');
    const days = answer.days;
    expect(days.slice(0, 49).every((day) => day === null)).toBe(true);
    expect(days[49]).toBe(1);
    expect(days[89 - 20]).toBe(0);
    expect(days[89 - 10]).toBe(0.5);
    // Today, with no report yet, counts as down so far.
    expect(days[89]).toBe(0);
    // 30 days: 29 whole days and today; one day lost and a half: about (29 - 1.5) / 29 of the whole days.
    expect(answer.uptime30d).toBeGreaterThan(90);
    expect(answer.uptime30d).toBeLessThan(95);
    expect(answer.uptime90d).toBeGreaterThan(answer.uptime30d!);
    expect(answer.uptime90d).toBeLessThan(97);
  });

  test("a server's uptime counts from its first report, not from the midnight before it", async () => {
    // Issue 48's defect: a server first heard at 21:44 showed 0.07 % that evening, its day counted from 00:00.
    ahead = 0;
    await report(api, 1);
    const first = serverOf(await status(api), 'us-nyc-1');
    expect(first).toMatchObject({ online: true, uptime30d: 100, uptime90d: 100 });
    expect(first.days[89]).toBe(1);
    expect(first.days.slice(0, 89).every((day) => day === null)).toBe(true);
    // Silent since: 70 minutes later it was up 1 of the 71 report intervals since its first report
    // (whether or not midnight passed in between).
    ahead = 70 * 60_000;
    const later = serverOf(await status(api), 'us-nyc-1');
    expect(later).toMatchObject({ online: false, uptime30d: 1.408, uptime90d: 1.408 });
    ahead = 0;
  });

  test('public and cacheable: max-age, an ETag of the figures, 304 to If-None-Match; nothing about a customer', async () => {
    ahead = 0;
    const signedIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: 'ada' });
    const checkout = await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: 'ada', email: 'ada@example.com' });
    await api.app.inject({ method: 'POST', url: `${new URL(checkout.body.url as string).pathname}/pay` });
    const publicKey = newPublicKey();
    const device = (await registerKey(api.app, signedIn.body.sessionToken as string, publicKey, 'Laptop', 'ada')).body.device as { ipv4Address: string; ipv6Address: string };
    await report(api, 1);

    const first = await status(api);
    expect(first.headers['cache-control']).toBe('public, max-age=15');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"status-/);
    expect((await status(api, { 'if-none-match': etag })).status).toBe(304);
    await report(api, 30);
    expect((await status(api, { 'if-none-match': etag })).status).toBe(200);
    for (const secret of [publicKey, device.ipv4Address, device.ipv6Address, 'ada@example.com', RELAY_TOKEN, nyc!.publicKey, nyc!.endpointHost]) {
      expect(first.text).not.toContain(secret);
    }
  });
});

/**
 * The catalogue reloads without a restart (issue 48, item 4): a file change (watched) or SIGHUP reads
 * VPN_SERVERS again; an invalid file keeps the catalogue in use and says why in one log line.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CATALOGUE } from '../../server/vpn/catalogue';
import { createTestApi, nameVerifier as verifier, type TestApi } from '../support/server-harness';

const folder = mkdtempSync(join(tmpdir(), 'veil-reload-'));
const file = join(folder, 'servers.json');
const [nyc, lagos] = DEMO_CATALOGUE.servers;
const write = (content: unknown) => {
  // As an editor saves: a new file renamed over the old one.
  writeFileSync(`${file}.tmp`, typeof content === 'string' ? content : JSON.stringify(content));
  renameSync(`${file}.tmp`, file);
};

async function until(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('not within time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the catalogue reload', () => {
  let api: TestApi;
  const lines: string[] = [];
  const serverIds = async () => ((await api.app.inject({ method: 'GET', url: '/api/vpn/servers' })).json().servers as Array<{ id: string }>).map((server) => server.id);
  const maintenanceOf = async (id: string) =>
    ((await api.app.inject({ method: 'GET', url: '/api/vpn/servers/status' })).json().servers as Array<{ id: string; maintenance: boolean }>).find((server) => server.id === id)?.maintenance;

  beforeAll(async () => {
    write({ servers: [nyc] });
    api = await createTestApi({ driver: 'pglite', verifier, env: { VPN_SERVERS: file }, logger: true, logDestination: { write: (line) => lines.push(line) } });
  });
  afterAll(async () => {
    await api.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('a valid file change is in use within moments: a server added, one put into maintenance', async () => {
    expect(await serverIds()).toEqual(['us-nyc-1']);
    write({ servers: [{ ...nyc, maintenance: true }, lagos] });
    await until(async () => (await serverIds()).length === 2);
    expect(await serverIds()).toEqual(['us-nyc-1', 'ng-lagos-1']);
    expect(await maintenanceOf('us-nyc-1')).toBe(true);
  });

  test('an invalid file keeps the catalogue in use and says why in one log line', async () => {
    const before = await serverIds();
    lines.length = 0;
    write({ servers: [{ ...nyc, publicKey: 'not-a-key' }] });
    await until(async () => lines.some((line) => line.includes('VPN_SERVERS reload refused')));
    const line = lines.find((each) => each.includes('VPN_SERVERS reload refused'))!;
    expect(JSON.parse(line).msg).toMatch(/^VPN_SERVERS reload refused, the catalogue in use is kept: VPN_SERVERS: .* is not a valid server catalogue: servers\.0\.publicKey: must be a WireGuard public key/);
    expect(await serverIds()).toEqual(before);

    lines.length = 0;
    write('{ not json');
    await until(async () => lines.some((line) => line.includes('cannot read')));
    expect(await serverIds()).toEqual(before);
  });

  test('SIGHUP reads the file again', async () => {
    write({ servers: [lagos] });
    await until(async () => (await serverIds()).length === 1);
    // A change the watch is not told of (written in place through another path is the same file): SIGHUP reads it.
    writeFileSync(file, JSON.stringify({ servers: [nyc, { ...lagos, maintenance: true }] }));
    process.emit('SIGHUP', 'SIGHUP');
    expect(await serverIds()).toEqual(['us-nyc-1', 'ng-lagos-1']);
    expect(await maintenanceOf('ng-lagos-1')).toBe(true);
  });
});

/**
 * The server choice (issue 48 item 3): the list joined with the public status, and the preselection (the
 * least-loaded online server, of the chosen country when one is given).
 */
import { describe, expect, test } from 'vitest';
import type { VpnServer } from '../../contract/api';
import type { ServerStatus } from '../../contract/relay';
import { isDown, joinServerStatus, preselectServer } from '../../machines/server-choice';

const base = { hostname: 'h', endpointHost: '192.0.2.10', endpointPort: 51820, publicKey: 'k', dns: ['10.64.0.1'] };
const servers: VpnServer[] = [
  { ...base, id: 'us-nyc-1', country: 'US', countryName: 'United States', city: 'New York' },
  { ...base, id: 'us-sfo-1', country: 'US', countryName: 'United States', city: 'San Francisco' },
  { ...base, id: 'de-fra-1', country: 'DE', countryName: 'Germany', city: 'Frankfurt' },
  { ...base, id: 'ng-lagos-1', country: 'NG', countryName: 'Nigeria', city: 'Lagos' },
];
function status(id: string, online: boolean, load: number, maintenance = false): ServerStatus {
  const server = servers.find((each) => each.id === id)!;
  return { id, country: server.country, countryName: server.countryName, city: server.city, online, maintenance, load, lastReportAt: null, uptime30d: null, uptime90d: null, days: [] };
}

describe('the server choice', () => {
  const joined = joinServerStatus(servers, [status('us-nyc-1', true, 60), status('us-sfo-1', true, 20), status('de-fra-1', true, 5, true), status('ng-lagos-1', false, 0)]);

  test('each server carries its state and load; maintenance wins over online; an offline or maintenance server is down', () => {
    expect(joined.map((each) => each.status)).toEqual([
      { state: 'online', load: 60 },
      { state: 'online', load: 20 },
      { state: 'maintenance', load: 5 },
      { state: 'offline', load: 0 },
    ]);
    expect(joined.map(isDown)).toEqual([false, false, true, true]);
  });

  test('a server the status does not list counts as offline; no status at all leaves every state unknown, none down', () => {
    expect(joinServerStatus(servers, [status('us-nyc-1', true, 10)])[3]!.status).toEqual({ state: 'offline', load: 0 });
    const unknown = joinServerStatus(servers, null);
    expect(unknown.every((each) => each.status === undefined && !isDown(each))).toBe(true);
    expect(preselectServer(unknown)).toBe('us-nyc-1');
  });

  test('the least-loaded online server is preselected, never a less-loaded one under maintenance or offline', () => {
    expect(preselectServer(joined)).toBe('us-sfo-1');
    expect(preselectServer(joined, 'US')).toBe('us-sfo-1');
  });

  test('of the chosen country when it has one online; else of every country; ties keep the list order', () => {
    const both = joinServerStatus(servers, [status('us-nyc-1', true, 30), status('us-sfo-1', true, 30), status('de-fra-1', true, 50), status('ng-lagos-1', false, 0)]);
    expect(preselectServer(both, 'DE')).toBe('de-fra-1');
    expect(preselectServer(both, 'US')).toBe('us-nyc-1');
    expect(preselectServer(both, 'NG')).toBe('us-nyc-1');
  });

  test('with no server online (no relay reports yet, as in the demo), the first server: the form says it is down', () => {
    expect(preselectServer(joinServerStatus(servers, [status('us-nyc-1', false, 0), status('us-sfo-1', false, 0, true)]))).toBe('us-nyc-1');
    expect(preselectServer([])).toBeNull();
  });
});
